import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import type { S3Config } from '../config.js';
import type { FileStore } from './file-store.js';

/** Where the S3-compatible object store is: the configuration's shape (config.ts), re-exported for the store's users. */
export type { S3Config };

/**
 * The `FileStore` port on an S3-compatible object store (docs/decisions.md "S3-compatible file store"), so API and worker processes on
 * different machines share uploads without a shared folder. Keys are the same as on disk
 * (`<documentId>/page-<n>.<ext>`), one object each; a document's files are the objects under `<documentId>/`.
 * A missing object is reported like a missing file (`code: 'ENOENT'`), which the admin panel's page view and
 * retention rely on. Credentials absent: the SDK's default chain (environment, instance role).
 */
export class S3FileStore implements FileStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(cfg: S3Config, client?: S3Client) {
    this.bucket = cfg.bucket;
    this.client =
      client ??
      new S3Client({
        region: cfg.region,
        endpoint: cfg.endpoint,
        forcePathStyle: cfg.forcePathStyle ?? cfg.endpoint !== undefined,
        credentials: cfg.accessKeyId && cfg.secretAccessKey ? { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey } : undefined,
      });
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes }));
  }

  /** @throws Error with `code: 'ENOENT'` when there is no such object. */
  async get(key: string): Promise<Buffer> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return Buffer.from(await res.Body!.transformToByteArray());
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') {
        throw Object.assign(new Error(`no such file: ${key}`), { code: 'ENOENT' });
      }
      throw err;
    }
  }

  async removeDocument(documentId: string): Promise<void> {
    for await (const page of this.pages(`${documentId}/`)) {
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length) await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }));
    }
  }

  async *listDocuments(): AsyncIterable<{ documentId: string; modifiedAt: Date }> {
    for await (const page of this.pages('', '/')) {
      for (const p of page.CommonPrefixes ?? []) {
        const documentId = p.Prefix!.slice(0, -1);
        let latest = 0;
        for await (const objects of this.pages(p.Prefix!)) {
          for (const o of objects.Contents ?? []) latest = Math.max(latest, o.LastModified?.getTime() ?? 0);
        }
        yield { documentId, modifiedAt: new Date(latest) };
      }
    }
  }

  /** Every page of a listing (1000 keys each). */
  private async *pages(prefix: string, delimiter?: string): AsyncIterable<ListObjectsV2CommandOutput> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, Delimiter: delimiter, ContinuationToken: token }),
      );
      yield page;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Closes the HTTP connections of the client. */
  close(): void {
    this.client.destroy();
  }
}
