import { invalid } from '../errors.js';
import type { AttachmentInput, SendMode } from './edo.port.js';

const signed = (a: AttachmentInput) => Boolean(a.SignedContent.Signature) || a.SignedContent.SignWithTestSignature === true;

/**
 * The mode of a send request. An explicit `Mode` (or the older `IsDraft: true`) must fit the signatures; without
 * one, documents that are all signed are sent and documents that are all unsigned are stored with `delaySend`
 * (the spec's own body has no signature: Diadoc cannot send it, and a delayed send is the one unsigned mode that
 * still shows the document among the outbound ones). Anything else is ambiguous and refused.
 * @throws ApiError 422 VALIDATION_ERROR naming the field that conflicts.
 */
export function resolveSendMode(body: { Mode?: SendMode; IsDraft?: boolean; DocumentAttachments: AttachmentInput[] }): SendMode {
  const list = body.DocumentAttachments;
  const firstSigned = list.findIndex(signed);
  const firstUnsigned = list.findIndex((a) => !signed(a));
  if (body.IsDraft !== undefined && body.Mode !== undefined && body.IsDraft !== (body.Mode === 'draft'))
    throw invalid('IsDraft', `contradicts Mode "${body.Mode}"; send only Mode`);
  const mode = body.Mode ?? (body.IsDraft === true ? 'draft' : undefined);
  if (mode === 'signed' || (mode === undefined && body.IsDraft === false)) {
    if (firstUnsigned >= 0)
      throw invalid(
        `DocumentAttachments[${firstUnsigned}].SignedContent.Signature`,
        'is required to send now (Mode "signed"); give a detached signature or SignWithTestSignature, or choose Mode "delaySend" or "draft"',
      );
    return 'signed';
  }
  if (mode !== undefined) {
    if (firstSigned >= 0)
      throw invalid(
        `DocumentAttachments[${firstSigned}].SignedContent`,
        `must not carry a signature in Mode "${mode}"; use Mode "signed" to send it`,
      );
    return mode;
  }
  if (firstUnsigned < 0) return 'signed';
  if (firstSigned < 0) return 'delaySend';
  throw invalid(
    'Mode',
    `is required when some documents are signed (DocumentAttachments[${firstSigned}]) and others are not (DocumentAttachments[${firstUnsigned}]): "signed" needs every signature, "delaySend"/"draft" none`,
  );
}
