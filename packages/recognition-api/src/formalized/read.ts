import { decodeFormalized } from './decode.js';
import { FormalizedXmlError } from './errors.js';
import { KND_TORG12_SELLER, mapTorg12Tree } from './read-torg12.js';
import { KND_UPD_SELLER, mapUpdTree, type FormalizedDocument } from './read-upd.js';
import { attr, child, parseXmlTree } from './xml-tree.js';

/**
 * Reads any supported formalized seller title, chosen by `Документ/@КНД`: 1115131 the UPD / invoice
 * (`ON_NSCHFDOPPR`, 5.01–5.03, read-upd.ts) or 1175010 the ТОРГ-12 (`DP_TOVTORGPR`, read-torg12.ts).
 * @param bytes the file as received (windows-1251 or UTF-8 by its declaration, at most 5 MiB)
 * @throws FormalizedXmlError `too_large`, `encoding`, `dtd_forbidden`, `malformed`, `unknown_knd` (another КНД) or
 *   `unsupported` (another root, version or Функция, a missing part, a non-numeric amount)
 */
export function readFormalized(bytes: Buffer): FormalizedDocument {
  const tree = parseXmlTree(decodeFormalized(bytes));
  const file = child(tree, 'Файл');
  if (!file) throw new FormalizedXmlError('unsupported', 'the root element is not Файл: not an FNS formalized document');
  const knd = attr(child(file, 'Документ'), 'КНД');
  if (knd === KND_TORG12_SELLER) return mapTorg12Tree(tree);
  if (knd === KND_UPD_SELLER) return mapUpdTree(tree);
  throw new FormalizedXmlError(
    'unknown_knd',
    `КНД "${knd ?? ''}" is not supported (${KND_UPD_SELLER} the UPD/invoice seller title, ${KND_TORG12_SELLER} the ТОРГ-12 seller title)`,
  );
}
