import type { EdoConnectionAdmin, EdoConnectionInput, EdoConnectionView } from '../edo/edo-connection.service.js';
import type { EdoHealth } from '../edo/edo-health.js';
import type { EdoService } from '../edo/edo.service.js';
import { ApiError } from '../errors.js';
import { type AdminError, formError } from './admin-errors.js';

/** The connection form's fields, as named in the HTML form and in {@link EdoConnectionInput}. */
export const EDO_FIELDS = ['clientId', 'clientSecret', 'refreshToken', 'boxId', 'issuerUrl', 'apiBaseUrl'] as const;
type EdoField = (typeof EDO_FIELDS)[number];

export const EDO_LABELS: Record<EdoField, string> = {
  clientId: 'Идентификатор клиента (client_id)',
  clientSecret: 'Секрет клиента (client_secret)',
  refreshToken: 'Refresh-токен',
  boxId: 'Идентификатор ящика (box id)',
  issuerUrl: 'Адрес сервера авторизации',
  apiBaseUrl: 'Адрес API оператора',
};

/** Result of "Check connection": what the panel shows. */
export interface ConnectionCheck {
  ok: boolean;
  /** One sentence in Russian: what happened and what to do. */
  summary: string;
  organization?: string;
  boxId?: string | null;
  employees?: number;
  /** The gateway's own status word and the operator's text, for a support request. */
  status: string;
  details?: string;
}

/** What an administrator can do about each health status of the gateway (docs/edo-gateway.md, Health statuses). */
function advice(h: EdoHealth): string {
  const m = h.message ?? '';
  switch (h.status) {
    case 'not_configured':
      return 'Подключение не настроено: заполните форму и сохраните.';
    case 'misconfigured':
      return 'Сохранённые секреты не расшифровываются текущим мастер-ключом (EDO_MASTER_KEY): верните прежний ключ или введите секрет клиента и refresh-токен заново.';
    case 'unauthorized':
      if (/client id or secret|client credentials/.test(m))
        return 'Сервер авторизации отклонил идентификатор или секрет клиента. Проверьте их в «Кабинете интегратора» Диадока и введите заново.';
      if (/refresh token/.test(m))
        return 'Сервер авторизации отклонил refresh-токен (он отозван или истёк). Выпустите новый refresh-токен для сотрудника ящика и введите его.';
      return 'Оператор не принял учётные данные. Проверьте секрет клиента и refresh-токен.';
    case 'forbidden':
      return 'Оператор запретил доступ: пользователь refresh-токена не сотрудник этого ящика или у него недостаточно прав.';
    case 'subscription_required':
      return 'У ящика нет действующей подписки на API Диадока. Оформите её у оператора.';
    case 'rate_limited':
      return 'Оператор ограничил частоту запросов. Повторите проверку через минуту.';
    case 'unreachable':
      return 'Оператор или сервер авторизации недоступен. Проверьте адреса и доступ в интернет, затем повторите проверку.';
    case 'box_not_found':
      return 'Токен действует, но указанного ящика нет среди ящиков пользователя. Проверьте идентификатор ящика.';
    default:
      return 'Оператор ответил ошибкой; подробности ниже.';
  }
}

/** Russian text for a VALIDATION_ERROR of the connection store (`boxId: must be …`), tied to its field. */
function translate(err: ApiError): AdminError {
  const field = err.message.split(':')[0] as EdoField;
  const label = EDO_LABELS[field] ?? 'Поле';
  if (/is required/.test(err.message)) return formError(field, `Заполните поле «${label}».`);
  if (/too long/.test(err.message)) return formError(field, `Поле «${label}» слишком длинное.`);
  if (field === 'boxId') return formError(field, 'Идентификатор ящика — это GUID или 32 шестнадцатеричные цифры с @diadoc.ru.');
  if (field === 'issuerUrl' || field === 'apiBaseUrl')
    return formError(field, `«${label}»: нужен полный адрес https://… (http — только для локального симулятора).`);
  return formError(field, `«${label}»: ${err.message}`);
}

/**
 * The e-document connection section (issue 10, item 4): shows the stored connection without its secrets, stores
 * a new one (client secret and refresh token are write-only: an empty field keeps the stored value), and checks it
 * with the gateway health plus the organisation's name and employees count.
 */
export class AdminEdoService {
  constructor(private readonly deps: { connection: EdoConnectionAdmin; gateway: EdoService }) {}

  /** The stored connection, or null; `undecryptable` when the master key does not open it. */
  async show(): Promise<{ view: EdoConnectionView | null; undecryptable: boolean }> {
    try {
      return { view: await this.deps.connection.show(), undecryptable: false };
    } catch (err) {
      if (err instanceof ApiError && err.code === 'EDO_NOT_CONFIGURED') return { view: null, undecryptable: true };
      throw err;
    }
  }

  /** @throws AdminError VALIDATION naming the field; nothing is stored then. */
  async save(form: Record<string, unknown>): Promise<EdoConnectionView> {
    const input: EdoConnectionInput = {};
    for (const f of EDO_FIELDS) {
      const v = form[f];
      if (v !== undefined && typeof v !== 'string') throw formError(f, `Поле «${EDO_LABELS[f]}» заполнено неверно.`);
      // Empty = keep what is stored (write-only secrets; URLs fall back to the stored value or Diadoc's defaults).
      if (v?.trim()) input[f] = v.trim();
    }
    try {
      return await this.deps.connection.set(input);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'VALIDATION_ERROR') throw translate(err);
      throw err;
    }
  }

  /** Runs the health check; when connected also reads the organisation and the employees count. */
  async check(): Promise<ConnectionCheck> {
    const { ok, body } = await this.deps.connection.test();
    if (!ok) return { ok: false, summary: advice(body), status: body.status, boxId: body.box_id, details: body.message };
    let organization: string | undefined;
    let employees: number | undefined;
    try {
      const org = await this.deps.gateway.currentOrganization();
      organization = String(org.FullName ?? org.ShortName ?? '');
      const list = await this.deps.gateway.employees(1, 1);
      employees = Number(list.TotalCount ?? (list.Employees as unknown[] | undefined)?.length ?? 0);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return {
        ok: true,
        summary: 'Подключение работает, но сведения об организации получить не удалось.',
        status: body.status,
        boxId: body.box_id,
        details: err.message,
      };
    }
    return { ok: true, summary: 'Подключение работает.', status: body.status, boxId: body.box_id, organization, employees };
  }
}
