import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * Storage port for uploaded page images. Keys are relative paths chosen by the service
 * (`<documentId>/page-<n>.<ext>`), never by the caller. Another adapter (S3 etc.) can replace the local one.
 */
export interface FileStore {
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** Removes every file of a document; no error when there is none. */
  removeDocument(documentId: string): Promise<void>;
  /**
   * Every document that has files, with the time its files were last written (the orphan sweep, docs/decisions.md
   * 7: files whose row was never committed or was deleted by a DELETE that crashed before removing them).
   */
  listDocuments(): AsyncIterable<{ documentId: string; modifiedAt: Date }>;
}

/** Files on local disk under `root` (default `<dataDir>/recognition/files`). */
export class LocalFileStore implements FileStore {
  private readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Absolute path of a key; refuses keys that would escape the root (defence in depth). */
  pathOf(key: string): string {
    const p = resolve(this.root, key);
    if (!p.startsWith(this.root + sep)) throw new Error(`file key outside the store: ${key}`);
    return p;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const p = this.pathOf(key);
    await mkdir(dirname(p), { recursive: true });
    await writeFile(p, bytes);
  }

  async get(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async removeDocument(documentId: string): Promise<void> {
    await rm(this.pathOf(documentId), { recursive: true, force: true });
  }

  async *listDocuments(): AsyncIterable<{ documentId: string; modifiedAt: Date }> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const name of names) {
      const st = await stat(join(this.root, name)).catch(() => null);
      if (st?.isDirectory()) yield { documentId: name, modifiedAt: st.mtime };
    }
  }

  /** The folder of one document (tests check it is gone after DELETE). */
  documentDir(documentId: string): string {
    return join(this.root, documentId);
  }
}
