import type { IdSource } from '@app/shared';
import type { SimulatorConfig } from '../config.js';
import { SimError } from './errors.js';
import type { Customer, Wallet } from './types.js';

/**
 * Guests (by phone, with a bonus wallet) and certificates (by serial used as card number, with a certificate
 * wallet), built from the config. iiko Card models a gift certificate as a card with a certificate wallet.
 */
export class CustomerBook {
  private readonly byId = new Map<string, Customer>();
  private readonly byPhone = new Map<string, Customer>();
  private readonly byCard = new Map<string, Customer>();
  private readonly walletOwner = new Map<string, { customer: Customer; wallet: Wallet }>();

  constructor(config: SimulatorConfig, ids: IdSource) {
    for (const g of config.guests) {
      const c: Customer = {
        id: ids.uuid(),
        phone: g.phone,
        name: g.name ?? '',
        accrualPercent: g.accrualPercent,
        wallets: [{ id: ids.uuid(), type: 'bonus', balanceMinor: g.bonusBalanceMinor, heldMinor: 0 }],
        category: g.category,
        coupons: g.coupons,
      };
      this.add(c);
      this.byPhone.set(g.phone, c);
    }
    for (const cert of config.certificates) {
      const c: Customer = {
        id: ids.uuid(),
        cardNumber: cert.serial,
        name: `Certificate ${cert.serial}`,
        accrualPercent: 0,
        wallets: [
          {
            id: ids.uuid(),
            type: 'certificate',
            balanceMinor: cert.balanceMinor,
            heldMinor: 0,
            validTo: cert.validTo ? new Date(cert.validTo) : undefined,
          },
        ],
      };
      this.add(c);
      this.byCard.set(cert.serial, c);
    }
  }

  private add(c: Customer): void {
    this.byId.set(c.id, c);
    for (const w of c.wallets) this.walletOwner.set(w.id, { customer: c, wallet: w });
  }

  /** The guest with this E.164 phone, if configured. */
  byPhoneNumber(phone: string): Customer | undefined {
    return this.byPhone.get(phone);
  }

  /** The certificate card with this serial, if configured. */
  byCardNumber(card: string): Customer | undefined {
    return this.byCard.get(card);
  }

  /** Finds a customer by id, phone or card number; throws CUSTOMER_NOT_FOUND. */
  find(q: { id?: string; phone?: string; cardNumber?: string }): Customer {
    const c = q.id ? this.byId.get(q.id) : q.phone ? this.byPhone.get(q.phone) : q.cardNumber ? this.byCard.get(q.cardNumber) : undefined;
    if (!c) throw new SimError('CUSTOMER_NOT_FOUND', 'Customer not found');
    return c;
  }

  /** The wallet with its owner; throws CUSTOMER_NOT_FOUND when the pair does not exist. */
  wallet(customerId: string, walletId: string): { customer: Customer; wallet: Wallet } {
    const found = this.walletOwner.get(walletId);
    if (!found || found.customer.id !== customerId) throw new SimError('CUSTOMER_NOT_FOUND', 'Wallet not found for this customer');
    return found;
  }

  /** Any wallet by id (for settling holds). */
  walletById(walletId: string): Wallet | undefined {
    return this.walletOwner.get(walletId)?.wallet;
  }
}

/** Spendable balance: booked minus held; 0 for an expired certificate. */
export function available(w: Wallet, now: Date): number {
  if (w.validTo && now >= w.validTo) return 0;
  return w.balanceMinor - w.heldMinor;
}
