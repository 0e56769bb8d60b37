import type { Actor } from '@app/admin-web';
import type { Clock, IdSource } from '@app/shared';
import type { AdminAuditRepo, AuditEntry } from './admin-audit.repo.js';

/** Russian names of the audited actions, as the audit page shows them. */
export const ACTION_LABELS: Record<string, string> = {
  'auth.sign-in': 'Вход',
  'auth.sign-in-failed': 'Неудачный вход',
  'auth.password': 'Смена пароля',
  'key.create': 'Создан ключ',
  'key.deactivate': 'Ключ отключён',
  'key.reactivate': 'Ключ включён',
  'key.scopes': 'Изменены области ключа',
  'key.rotate-secret': 'Новый секрет подписи',
  'edo.save': 'Изменено подключение ЭДО',
  'edo.disconnect': 'Подключение ЭДО удалено',
  'document.delete': 'Удалён документ',
  'document.retry': 'Документ отправлен на повторное распознавание',
  'callback.resend': 'Обратный вызов отправлен повторно',
  'user.create': 'Создана учётная запись',
  'user.disable': 'Учётная запись отключена',
  'user.enable': 'Учётная запись включена',
  'user.role': 'Изменена роль',
};

/**
 * The panel's audit log (docs/admin-panel.md): every change made in the panel and every sign-in attempt, with
 * the user, the client address (through TRUST_PROXY), the action and its target. Secrets never go in.
 */
export class AdminAudit {
  constructor(private readonly deps: { repo: AdminAuditRepo; clock: Clock; ids: IdSource }) {}

  record(actor: Actor, action: string, target: string, detail = ''): Promise<void> {
    return this.deps.repo.insert({ id: this.deps.ids.uuid(), at: this.deps.clock.now(), ...actor, action, target, detail });
  }

  latest(limit = 200): Promise<AuditEntry[]> {
    return this.deps.repo.latest(limit);
  }
}
