import sharp from 'sharp';
import { request } from 'undici';
import { Value } from 'typebox/value';
import type { AiConfig } from '../../config.js';
import { RecognitionFailedError, type EngineHealth, type RecognitionEngine, type RecognitionInput, type RecognitionOutput } from '../engine.port.js';
import { AI_PROMPT, AiAnswer, type AiAnswerT } from './ai-schema.js';

/** Data URL of a page; TIFF/BMP are re-encoded as PNG because vision APIs take JPEG/PNG/WebP/GIF only. */
async function toDataUrl(image: Buffer): Promise<string> {
  const format = (await sharp(image).metadata().catch(() => ({ format: undefined }))).format;
  if (format === 'jpeg' || format === 'png' || format === 'webp') return `data:image/${format};base64,${image.toString('base64')}`;
  const png = await sharp(image).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** The request body of `POST {baseUrl}/chat/completions` for one document. */
export async function buildChatRequest(model: string, input: RecognitionInput): Promise<Record<string, unknown>> {
  const hint = input.documentType === 'auto' ? 'Detect the document type.' : `The document type is ${input.documentType}.`;
  const images = await Promise.all(input.images.map(async (img) => ({ type: 'image_url', image_url: { url: await toDataUrl(img) } })));
  return {
    model,
    temperature: 0,
    messages: [
      { role: 'system', content: AI_PROMPT },
      { role: 'user', content: [{ type: 'text', text: `${hint} Image quality: ${input.imageQuality}. Pages: ${input.images.length}.` }, ...images] },
    ],
    response_format: { type: 'json_schema', json_schema: { name: 'recognized_document', strict: true, schema: AiAnswer } },
  };
}

/**
 * RecognitionEngine over an OpenAI-compatible chat completions API (AI_BASE_URL, AI_API_KEY, AI_MODEL): page
 * images as data URLs in `image_url` parts, the answer constrained by a JSON schema and checked again here with
 * TypeBox. Failures map to RecognitionFailedError: connection errors → `engine_unavailable`, abort/timeout →
 * `timeout`, non-2xx or an answer outside the schema → `engine_error`. Health: `GET {baseUrl}/models` is 2xx.
 */
export class AiEngine implements RecognitionEngine {
  readonly name: string;
  constructor(private readonly config: AiConfig) {
    this.name = `ai:${config.model}`;
  }

  private headers(): Record<string, string> {
    return { 'content-type': 'application/json', ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}) };
  }

  async recognize(input: RecognitionInput): Promise<RecognitionOutput> {
    const body = JSON.stringify(await buildChatRequest(this.config.model, input));
    const signal = input.signal ? AbortSignal.any([input.signal, AbortSignal.timeout(this.config.timeoutMs)]) : AbortSignal.timeout(this.config.timeoutMs);
    let status: number;
    let text: string;
    try {
      const res = await request(`${this.config.baseUrl}/chat/completions`, { method: 'POST', headers: this.headers(), body, signal });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      if (signal.aborted) throw new RecognitionFailedError('timeout', 'AI model did not answer in time');
      throw new RecognitionFailedError('engine_unavailable', `AI API unreachable: ${(err as Error).message}`);
    }
    if (status < 200 || status >= 300) throw new RecognitionFailedError('engine_error', `AI API answered HTTP ${status}`);
    const answer = parseAnswer(text);
    const { document_type, ...data } = answer;
    return {
      documentType: input.documentType === 'auto' ? document_type : input.documentType,
      data,
      warnings: [],
      pages: input.images.length,
    };
  }

  async health(): Promise<EngineHealth> {
    try {
      const res = await request(`${this.config.baseUrl}/models`, { headers: this.headers(), signal: AbortSignal.timeout(5000) });
      await res.body.dump();
      return res.statusCode >= 200 && res.statusCode < 300 ? 'ok' : 'unavailable';
    } catch {
      return 'unavailable';
    }
  }
}

/** Extracts and checks the model's JSON answer from a chat completion response body. */
export function parseAnswer(responseText: string): AiAnswerT {
  let content: unknown;
  try {
    const parsed = JSON.parse(responseText) as { choices?: { message?: { content?: string | null; refusal?: string | null } }[] };
    const msg = parsed.choices?.[0]?.message;
    if (msg?.refusal) throw new RecognitionFailedError('no_document', 'AI model refused to read the images');
    content = JSON.parse(msg?.content ?? '');
  } catch (err) {
    if (err instanceof RecognitionFailedError) throw err;
    throw new RecognitionFailedError('engine_error', 'AI answer is not JSON');
  }
  if (!Value.Check(AiAnswer, content)) throw new RecognitionFailedError('engine_error', 'AI answer does not match the document schema');
  return content;
}
