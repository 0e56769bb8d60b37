/**
 * The error table of the administration panel: every failure the panel shows, with its HTTP status and the
 * Russian text an administrator reads. The panel answers HTML, so these never use the API's JSON envelope.
 */
export const ADMIN_ERRORS = {
  BAD_CREDENTIALS: [401, 'Неверное имя пользователя или пароль.'],
  RATE_LIMITED: [429, 'Слишком много попыток входа. Подождите и попробуйте снова.'],
  ACCOUNT_LOCKED: [429, 'Вход в эту учётную запись временно закрыт после нескольких неверных паролей. Попробуйте позже.'],
  CSRF: [403, 'Форма устарела или отправлена не из панели. Обновите страницу и отправьте форму ещё раз.'],
  FORBIDDEN: [403, 'Ваша роль — «наблюдатель»: просматривать можно, изменять нельзя. Обратитесь к администратору.'],
  ACCOUNT_DISABLED: [403, 'Учётная запись отключена.'],
  VALIDATION: [422, 'Проверьте заполнение формы.'],
  NOT_FOUND: [404, 'Страница не найдена.'],
  INTERNAL: [500, 'Внутренняя ошибка. Попробуйте ещё раз; если ошибка повторяется, сообщите разработчикам.'],
} as const satisfies Record<string, readonly [number, string]>;

export type AdminErrorCode = keyof typeof ADMIN_ERRORS;

/** A failure shown to the administrator: `message` is Russian, `field` names the form field it concerns. */
export class AdminError extends Error {
  readonly status: number;
  constructor(
    readonly code: AdminErrorCode,
    message: string = ADMIN_ERRORS[code][1],
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AdminError';
    this.status = ADMIN_ERRORS[code][0];
  }
}

/** 422 about one form field, e.g. `formError('name', 'Укажите название ключа.')`. */
export const formError = (field: string, message: string): AdminError => new AdminError('VALIDATION', message, field);
