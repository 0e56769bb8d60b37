/**
 * Russian names of the audited actions, as the audit page shows them. A page that audits a new action adds its
 * label here (docs/console.md); an unknown action is shown by its code.
 */
export const AUDIT_LABELS: Record<string, string> = {
  'auth.sign-in': 'Вход',
  'auth.sign-in-failed': 'Неудачный вход',
  'auth.password': 'Смена пароля',
  'user.create': 'Создана учётная запись',
  'user.disable': 'Учётная запись отключена',
  'user.enable': 'Учётная запись включена',
  'user.role': 'Изменена роль',
  'order.manual-review': 'Заказ передан на ручной разбор',
  'order.reject': 'Заказ отклонён',
  'order.release-holds': 'Удержания лояльности сняты',
  'order.close-review': 'Разбор заказа закрыт',
  'webhook.replay': 'Вебхуки отправлены повторно',
  'webhook.replay-since': 'Недоставленные вебхуки отправлены повторно с момента',
  'webhook.url': 'Изменён адрес вебхуков',
  'webhook.rotate-secret': 'Новый секрет вебхуков',
  'route.enable': 'Маршрут включён',
  'route.disable': 'Маршрут выключен',
  'source.feature-on': 'Переключатель источника включён',
  'source.feature-off': 'Переключатель источника выключен',
  'credential.issue': 'Выпущен ключ',
  'credential.revoke': 'Ключ отозван',
};
