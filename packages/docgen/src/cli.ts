#!/usr/bin/env -S npx tsx
/**
 * Writes a generated set to a folder: `npx tsx packages/docgen/src/cli.ts --out DIR [--count 10] [--seed 1]
 * [--type upd|torg12|invoice|mixed] [--tier scan|photo|photo-table|photo-phone|screenshot] [--lines N] [--date-style numeric|words|guillemets|quotes|nominative]
 * [--latin] [--real-names] [--prices-incl-vat] [--party-style short|1c-bank|inn-kpp-pair] [--stamps] [--continuation repeat-header|no-header] [--output images|pdf-text|pdf-scan]`. Each document becomes
 * `<name>-p<page>.(png|jpg)` (or `<name>.pdf`) plus `<name>.json` with `{documentType, tier, seed, truth}`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { closeRenderer, generateDocument, type DateStyle, type DocType, type GenerateOptions, type Tier } from './index.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    count: { type: 'string', default: '10' },
    seed: { type: 'string', default: '1' },
    type: { type: 'string', default: 'mixed' },
    tier: { type: 'string', default: 'scan' },
    lines: { type: 'string' },
    'date-style': { type: 'string' },
    latin: { type: 'boolean', default: false },
    'real-names': { type: 'boolean', default: false },
    'prices-incl-vat': { type: 'boolean', default: false },
    'party-style': { type: 'string' },
    stamps: { type: 'boolean', default: false },
    continuation: { type: 'string' },
    output: { type: 'string' },
  },
});
if (!values.out) {
  console.error(
    'usage: docgen --out DIR [--count N] [--seed S] [--type upd|torg12|invoice|mixed] [--tier scan|photo|photo-table|photo-phone|screenshot] [--lines N]',
  );
  process.exit(2);
}
const types: DocType[] = ['upd', 'torg12', 'invoice'];
mkdirSync(values.out, { recursive: true });
try {
  for (let i = 0; i < Number(values.count); i++) {
    const seed = Number(values.seed) + i;
    const type = values.type === 'mixed' ? types[i % 3] : (values.type as DocType);
    const tier = values.tier as Tier;
    const output = values.output as GenerateOptions['output'];
    const doc = await generateDocument({
      seed,
      type,
      tier,
      lines: values.lines ? Number(values.lines) : undefined,
      dateStyle: values['date-style'] as DateStyle | undefined,
      latinNames: values.latin,
      realNames: values['real-names'],
      pricesIncludeVat: values['prices-incl-vat'],
      partyStyle: values['party-style'] as GenerateOptions['partyStyle'],
      stamps: values.stamps,
      continuation: values.continuation as GenerateOptions['continuation'],
      output,
    });
    const name = `${type}-${tier}-${seed}`;
    if (output === 'pdf-text' || output === 'pdf-scan') writeFileSync(join(values.out!, `${name}.pdf`), doc.images[0]!);
    else
      for (const [p, img] of doc.images.entries())
        writeFileSync(join(values.out!, `${name}-p${p + 1}.${tier.startsWith('photo') ? 'jpg' : 'png'}`), img);
    writeFileSync(join(values.out!, `${name}.json`), JSON.stringify({ documentType: type, tier, seed, truth: doc.truth }, null, 2));
    console.log(`${name}: ${doc.pages} page(s), ${doc.truth.items.length} line(s)`);
  }
} finally {
  await closeRenderer();
}
