import type { RecognizedData } from '../engine/engine.port.js';
import { writeFormalizedUpd, type WrittenUpd } from './write-upd.js';

/**
 * The writer the Diadoc simulator's seeded box uses (`npm start`'s demo, the EDO tests): each seeded UPD/invoice is
 * the real 5.03 seller title written by {@link writeFormalizedUpd} from docgen data, so imports read what a real
 * box holds. The signer and the transfer content are the demo's fixed values (the seeded data carries none).
 */
export function simulatorUpdWriter(
  kind: 'upd' | 'invoice',
  data: RecognizedData,
  file: { senderId: string; recipientId: string; uuid: string; at: Date },
): WrittenUpd {
  return writeFormalizedUpd(data, kind, {
    senderId: file.senderId,
    recipientId: file.recipientId,
    signer: { surname: 'Смирнов', firstName: 'Алексей', patronymic: 'Петрович', position: 'Генеральный директор', authorityMethod: '1' },
    transfer: kind === 'upd' ? { operation: 'Товары переданы' } : undefined,
    program: 'edo-simulator (recognition-api writer)',
    now: () => file.at,
    uuid: () => file.uuid,
  });
}
