/** Secrets at rest (API HMAC secrets, webhook secrets) are sealed with the SecretBox both services share. */
export { SecretBox, SecretBoxError } from '@app/shared';
