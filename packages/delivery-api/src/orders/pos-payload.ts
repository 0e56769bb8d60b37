import type { Calculation } from '../checkout/calculator.js';
import { formatQuantity } from '../common/money.js';
import { ApiError } from '../errors.js';
import type { StreetMatch } from '../zones/streets.js';
import type { OrderRequest } from './order-request.js';
import type { OrderRoute } from '@app/delivery-contract';
import type { PosOrderPayload, PosPayment } from '@app/delivery-contract';

export type { PosOrderPayload } from '@app/delivery-contract';

/** POS comment limit: the first 250 of at most 500 characters reach the POS. Spec: Order request comment, Limits. */
export const POS_COMMENT_LIMIT = 250;

export interface PayloadContext {
  orderId: string;
  route: OrderRoute;
  req: OrderRequest;
  street: StreetMatch;
}

function base(
  ctx: PayloadContext,
  kind: 'checkout' | 'legacy',
): Omit<PosOrderPayload, 'items' | 'discounts' | 'giftLines' | 'deliveryFeeLine' | 'deliveryFeeMinor' | 'payments'> {
  const { req, route, street } = ctx;
  const a = req.address;
  return {
    orderId: ctx.orderId,
    stableId: ctx.orderId,
    externalNumber: req.externalOrderId,
    kind,
    organizationId: route.organizationId,
    terminalGroupId: route.terminalGroupId,
    orderTypeId: route.orderTypeId,
    operatorUserId: route.operatorUserId,
    originName: route.originName,
    deliveryType: req.deliveryType,
    deliverAt: req.deliverAt ?? null,
    confirmed: false,
    guest: { name: req.guest.name, phone: req.guest.phone, externalClientId: req.guest.externalClientId ?? null },
    address: {
      city: a.city ?? null,
      street: a.street,
      streetStatus: street.status,
      streetCity: street.status === 'ok' ? street.street.city : null,
      house: a.house,
      flat: a.flat ?? null,
      entrance: a.entrance ?? null,
      floor: a.floor ?? null,
      doorphone: a.doorphone ?? null,
      comment: a.comment ?? null,
    },
    comment: req.comment ? req.comment.slice(0, POS_COMMENT_LIMIT) : null,
    persons: req.persons ?? null,
    callBack: req.callBack ?? false,
  };
}

/** Legacy order: mapped POS products and quantities; prices and payment are not sent (spec: POST /v1/orders). */
export function legacyPayload(ctx: PayloadContext, productIds: string[]): PosOrderPayload {
  return {
    ...base(ctx, 'legacy'),
    items: ctx.req.items.map((l, i) => ({ productId: productIds[i], amount: l.quantity, priceMinor: null, sumMinor: null })),
    discounts: [],
    giftLines: [],
    deliveryFeeLine: null,
    deliveryFeeMinor: 0,
    payments: [],
  };
}

/**
 * Checkout order payload, checked against the invariant of rule 9 before anything is stored:
 * Σ line sums at catalog price − Σ mapped discounts + delivery fee = Σ payments, and a non-zero fee has its line.
 * @throws ApiError internal_error when the invariant does not hold (a defect, never sent to the POS).
 */
export function checkoutPayload(ctx: PayloadContext, calc: Calculation): PosOrderPayload {
  const { settings, amounts, loyalty } = calc;
  const p = ctx.req.payment!;
  const discounts = (loyalty?.discounts ?? [])
    .filter((d) => d.kind === 'program' || amounts.couponDiscount > 0)
    .map((d) => ({ discountTypeId: d.posDiscountId!, sumMinor: d.amountMinor, kind: d.kind }));
  const payments: PosPayment[] = [];
  const method = p.method === 'online' ? 'online' : p.method === 'cash' ? 'cash' : 'card';
  const code = method === 'online' ? settings.onlinePaymentTypeCode : method === 'cash' ? settings.cashPaymentTypeCode : settings.cardPaymentTypeCode;
  if (p.amountMinor > 0 || payments.length === 0) {
    payments.push({
      paymentTypeCode: code,
      kind: method,
      sumMinor: p.amountMinor,
      isProcessedExternally: method === 'online',
      ...(p.externalPaymentId ? { externalPaymentId: p.externalPaymentId } : {}),
      ...(p.change ? { changeFromMinor: p.change.from } : {}),
    });
  }
  if (amounts.bonusSpend > 0)
    payments.push({ paymentTypeCode: settings.bonusPaymentTypeCode!, kind: 'bonus', sumMinor: amounts.bonusSpend, isProcessedExternally: true });
  if (amounts.certificateSpend > 0)
    payments.push({
      paymentTypeCode: settings.certificatePaymentTypeCode!,
      kind: 'certificate',
      sumMinor: amounts.certificateSpend,
      isProcessedExternally: true,
    });
  // the fee reaches the POS only as its service line: a fee without a fee product would be paid but never sold
  // (the database refuses zone pricing without one; this is the check at the place that builds the line)
  if (amounts.deliveryFee > 0 && !settings.deliveryFeeProductId) {
    throw new ApiError('internal_error', {}, `delivery fee ${amounts.deliveryFee} without a delivery-fee product: no service line for the POS`);
  }
  const items = calc.lines.map((l) => ({
    productId: l.item!.id,
    amount: formatQuantity(l.quantityMilli),
    priceMinor: l.unitPriceMinor,
    sumMinor: l.lineTotalMinor,
  }));
  const payload: PosOrderPayload = {
    ...base(ctx, 'checkout'),
    items,
    discounts,
    giftLines: (loyalty?.gifts ?? []).map((g) => ({
      productId: g.productId,
      amount: formatQuantity(g.quantityMilli),
      discountTypeId: g.posDiscountId!,
    })),
    deliveryFeeLine: amounts.deliveryFee > 0 ? { productId: settings.deliveryFeeProductId!, sumMinor: amounts.deliveryFee } : null,
    deliveryFeeMinor: amounts.deliveryFee,
    payments,
  };
  const goods = items.reduce((s, i) => s + i.sumMinor, 0);
  const disc = discounts.reduce((s, d) => s + d.sumMinor, 0);
  const paid = payments.reduce((s, x) => s + x.sumMinor, 0);
  if (goods - disc + amounts.deliveryFee !== paid) {
    throw new ApiError(
      'internal_error',
      {},
      `payment invariant violated: goods ${goods} - discounts ${disc} + fee ${amounts.deliveryFee} != payments ${paid}`,
    );
  }
  return payload;
}
