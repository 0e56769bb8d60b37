import type { EdoConnectionAdmin, EdoConnectionInput, EdoConnectionView } from '../edo/edo-connection.service.js';
import type { EdoHealth } from '../edo/edo-health.js';
import type { EdoSession } from '../edo/edo-session.js';
import type { EdoService } from '../edo/edo.service.js';
import type { TokenStatus } from '../edo/edo.port.js';
import { ApiError } from '../errors.js';
import { type AdminError, formError } from '@app/admin-web';

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
  /** The employee the refresh token acts as (GetMyEmployee, which any employee may call): name and role. */
  user?: string;
  isAdministrator?: boolean;
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
  if (/entered again/.test(err.message))
    return formError(
      field,
      `Адрес сервера авторизации или API изменён: введите «${EDO_LABELS.clientSecret}» и «${EDO_LABELS.refreshToken}» заново — сохранённые секреты на новый адрес не отправляются.`,
    );
  if (/too long/.test(err.message)) return formError(field, `Поле «${label}» слишком длинное.`);
  if (field === 'boxId') return formError(field, 'Идентификатор ящика — это GUID или 32 шестнадцатеричные цифры с @diadoc.ru.');
  if (field === 'issuerUrl' || field === 'apiBaseUrl')
    return formError(field, `«${label}»: нужен полный адрес https://… (http — только для локального симулятора).`);
  return formError(field, `«${label}»: ${err.message}`);
}

/**
 * The e-document connection section (docs/admin-panel.md): shows the stored connection without its secrets, stores
 * a new one (client secret and refresh token are write-only: an empty field keeps the stored value while the hosts
 * stay), and checks it with the gateway health plus the organisation's name and the token's own employee.
 */
export class AdminEdoService {
  constructor(private readonly deps: { connection: EdoConnectionAdmin; gateway: EdoService; session: EdoSession }) {}

  /** The access token this instance holds for the stored connection (obtained / expires), or null. */
  tokenStatus(): Promise<TokenStatus | null> {
    return this.deps.session.tokenStatus();
  }

  /** Deletes the stored connection and drops this instance's client (docs/admin-panel.md). */
  async disconnect(): Promise<void> {
    await this.deps.connection.clear();
    await this.deps.session.reset();
  }

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
    let user: string | undefined;
    let isAdministrator: boolean | undefined;
    try {
      const org = await this.deps.gateway.currentOrganization();
      organization = String(org.FullName ?? org.ShortName ?? '');
      // Not GetEmployees: only box administrators may call it, and the connection needs no administrator.
      const me = await this.deps.gateway.myEmployee();
      const u = (me.User ?? {}) as { Login?: string; FullName?: { LastName?: string; FirstName?: string } };
      user = [u.FullName?.LastName, u.FullName?.FirstName].filter(Boolean).join(' ') || u.Login || '';
      if (u.Login && user !== u.Login) user += ` (${u.Login})`;
      isAdministrator = (me.Permissions as { IsAdministrator?: boolean } | undefined)?.IsAdministrator === true;
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
    return { ok: true, summary: 'Подключение работает.', status: body.status, boxId: body.box_id, organization, user, isAdministrator };
  }

  /**
   * The operator's message of an imported document (the document page links here): its card from the gateway, or
   * the gateway's refusal as text (not connected, not found, unavailable) so the page still renders.
   */
  async message(messageId: string, entityId: string): Promise<{ card: OperatorDocumentCard | null; error: string | null }> {
    if (!GUID_RE.test(messageId) || !GUID_RE.test(entityId)) return { card: null, error: 'Неверные идентификаторы сообщения или документа.' };
    try {
      const d = await this.deps.gateway.getDocument(messageId, entityId);
      const str = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v));
      return {
        card: {
          messageId,
          entityId,
          title: str(d.Title),
          type: str(d.TypeNamedId ?? d.DocumentType),
          number: str(d.DocumentNumber),
          date: str(d.DocumentDate),
          fileName: str(d.FileName),
          direction: str(d.DocumentDirection),
          counteragentBoxId: str(d.CounteragentBoxIdGuid ?? d.CounteragentBoxId),
        },
        error: null,
      };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return { card: null, error: err.message };
    }
  }
}

/** What the panel shows of an operator document (Diadoc `Document`). */
export interface OperatorDocumentCard {
  messageId: string;
  entityId: string;
  title: string | null;
  type: string | null;
  number: string | null;
  date: string | null;
  fileName: string | null;
  direction: string | null;
  counteragentBoxId: string | null;
}

const GUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
