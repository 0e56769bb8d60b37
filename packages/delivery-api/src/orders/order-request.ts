/** Spec: Order request (wire shape after schema validation). Money in kopecks. */
export interface OrderRequest {
  schemaVersion: 1;
  source: string;
  externalOrderId: string;
  externalPointId: string;
  createdAt?: string;
  deliverAt?: string;
  guest: { externalClientId?: string; name: string; phone: string };
  address: { city?: string; street: string; house: string; flat?: string; entrance?: string; floor?: string; doorphone?: string; comment?: string };
  items: { externalProductId: string; quantity: string; price: { amountMinor: number; currency: 'RUB' } }[];
  total: { amountMinor: number; currency: 'RUB' };
  comment?: string;
  deliveryType: 'courier' | 'pickup';
  location?: { lat: number; lon: number };
  persons?: number;
  callBack?: boolean;
  coupon?: string;
  bonusToSpend?: { amountMinor: number; currency: 'RUB' };
  certificate?: { serial: string; amountMinor: number };
  calculationId?: string;
  payment?: {
    method: 'online' | 'cash' | 'card_on_delivery';
    paid: boolean;
    externalPaymentId?: string;
    amountMinor: number;
    change?: { from: number };
    code?: unknown;
  };
}
