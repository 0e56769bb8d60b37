import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { FormalizedXmlError } from './errors.js';

/** A parsed element: attributes under `@_name`, child elements by name (always arrays, see `ARRAYS`). */
export type XmlNode = { [key: string]: unknown };

// Elements that may repeat in the formats read here; parsing them always as arrays keeps the mapping uniform.
const ARRAYS = new Set(['СвПрод', 'СвПокуп', 'СведТов', 'Подписант', 'ГрузПолуч', 'ГрузОт']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // Values stay strings: INN/KPP/OKEI codes have leading zeros and amounts are converted explicitly.
  parseAttributeValue: false,
  parseTagValue: false,
  // The predefined XML entities and numeric character references (the writer uses them for characters windows-1251
  // lacks) are expanded. The option that enables numeric references also knows HTML's fixed named set; a file using
  // those is not valid XML and fails the XSD check, and no declared entity is ever expanded (DTDs are refused).
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => ARRAYS.has(name),
});

/**
 * Parses decoded XML text into a tree with fast-xml-parser after checking it is well-formed.
 * @throws FormalizedXmlError `malformed` with the line of the first error
 */
export function parseXmlTree(text: string): XmlNode {
  const check = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (check !== true) {
    throw new FormalizedXmlError('malformed', `not well-formed XML at line ${check.err.line}: ${check.err.msg}`);
  }
  try {
    return parser.parse(text) as XmlNode;
  } catch (e) {
    throw new FormalizedXmlError('malformed', `not well-formed XML: ${(e as Error).message}`);
  }
}

/** The attribute `name` of a node as a trimmed string, or null when absent or empty. */
export function attr(node: XmlNode | undefined, name: string): string | null {
  const v = node?.[`@_${name}`];
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' ? null : t;
}

/** The first child element `name` of a node (arrays are unwrapped), or undefined. */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  const v = node?.[name];
  const first = Array.isArray(v) ? v[0] : v;
  return first && typeof first === 'object' ? (first as XmlNode) : undefined;
}

/** All child elements `name` of a node, in document order. */
export function children(node: XmlNode | undefined, name: string): XmlNode[] {
  const v = node?.[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).filter((x): x is XmlNode => !!x && typeof x === 'object');
}

/** The text content of a child element (e.g. `<СумНал>12.50</СумНал>`), or null. */
export function text(node: XmlNode | undefined, name: string): string | null {
  const v = node?.[name];
  const first = Array.isArray(v) ? v[0] : v;
  if (typeof first === 'string') return first.trim() || null;
  if (first && typeof first === 'object' && typeof (first as XmlNode)['#text'] === 'string') {
    return ((first as XmlNode)['#text'] as string).trim() || null;
  }
  return null;
}
