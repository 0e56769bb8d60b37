/**
 * One engine of bench/recognition/versus-baseline.ts in a process of its own: loads `createLocalOcrEngine` from the
 * engine module given as its first argument (a path to `…/engine/ocr/index.ts` in any checkout), configured as the
 * service's high lane configures it (two pages at once, one libvips thread: engine/pool/pool-tasks.ts, server.ts),
 * and recognises the documents its parent sends over IPC, one at a time. Answers `{ seconds, data }` per request,
 * `seconds` being the engine's wall time for the whole document. Not a test.
 */
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';

interface Request {
  images: string[]; // base64
  documentType: string;
  imageQuality: 'scan' | 'photo';
}

sharp.concurrency(1);
sharp.cache(false);
const mod = (await import(pathToFileURL(process.argv[2]).href)) as {
  createLocalOcrEngine: (o: { concurrency: number }) => { recognize(i: unknown): Promise<{ data: unknown }> };
};
const engine = mod.createLocalOcrEngine({ concurrency: 2 });
process.on('message', async (m: Request) => {
  const images = m.images.map((b) => Buffer.from(b, 'base64'));
  const t0 = performance.now();
  try {
    const out = await engine.recognize({ images, documentType: m.documentType, imageQuality: m.imageQuality });
    process.send?.({ seconds: (performance.now() - t0) / 1000, data: out.data });
  } catch (err) {
    process.send?.({ seconds: (performance.now() - t0) / 1000, data: null, error: (err as Error).message });
  }
});
process.send?.({ ready: true });
