/**
 * A Tesseract LSTM network (the `lstm` component of a `.traineddata`, as `combine_tessdata -u` writes it) with its
 * int8 weight matrices turned back into float ones, so the installed integer model can be fine-tuned.
 *
 * Why: Debian ships the `tessdata_fast` models, whose weights are int8 with one scale per output, and
 * `lstmtraining --continue_from` refuses them ("is an integer (fast) model, cannot continue training"). An int
 * matrix holds, per output row, `round(w / s)` and `s` (the row's largest |w| / 127); `int × s` is the float
 * network the integer one was made from, within 8-bit rounding, and Tesseract both reads with it and trains it
 * (docs/recognition-photo.md "Session 2026-11-30 (4)"). Not used when recognising: a training tool
 * (`scripts/ocr-float-model.ts`).
 *
 * The layout follows Tesseract 4/5's serialisation (`Network::Serialize` and the layers' own, `WeightMatrix`,
 * `LSTMRecognizer::Serialize`): little-endian, strings as a u32 length and bytes.
 */

/** What the walk saw: one entry per layer (`type name`, indented by depth) and the weight matrices. */
export interface LstmSummary {
  layers: string[];
  /** Weight matrices met, and how many were int8. */
  matrices: number;
  intMatrices: number;
  /** Weights of all matrices, bias columns included. */
  weights: number;
  /** The network spec string Tesseract keeps beside the layers (`[1,36,0,1Ct3,3,16Mp3,3…]`). */
  spec: string;
  /** Whether the recogniser's `TF_INT_MODE` training flag is set (what `lstmtraining` checks). */
  intMode: boolean;
}

/** Raised for a component this reader does not understand (an old format, a training checkpoint, another layer). */
export class LstmFormatError extends Error {}

const TYPE_NAMES = [
  'Invalid',
  'Input',
  'Convolve',
  'Maxpool',
  'Parallel',
  'Replicated',
  'ParBidiLSTM',
  'DepParUDLSTM',
  'Par2dLSTM',
  'Series',
  'Reconfig',
  'RTLReversed',
  'TTBReversed',
  'XYTranspose',
  'LSTM',
  'SummLSTM',
  'Logistic',
  'LinLogistic',
  'LinTanh',
  'Tanh',
  'Relu',
  'Linear',
  'Softmax',
  'SoftmaxNoCTC',
  'LSTMSoftmax',
  'LSTMBinarySoftmax',
];
const PLUMBING = new Set([
  'Parallel',
  'Replicated',
  'ParBidiLSTM',
  'DepParUDLSTM',
  'Par2dLSTM',
  'Series',
  'RTLReversed',
  'TTBReversed',
  'XYTranspose',
]);
const FULLY_CONNECTED = new Set(['Logistic', 'LinLogistic', 'LinTanh', 'Tanh', 'Relu', 'Linear', 'Softmax', 'SoftmaxNoCTC']);
const LSTM_TYPES = new Set(['LSTM', 'SummLSTM', 'LSTMSoftmax', 'LSTMBinarySoftmax']);
/** Layers that store only their shape or geometry. */
const SHAPED = new Set(['Input', 'Convolve', 'Maxpool', 'Reconfig']);
/** `WeightMatrix` mode bits. */
const INT8_FLAG = 1;
const DOUBLE_FLAG = 128;
/** `NetworkFlags::NF_LAYER_SPECIFIC_LR`: a plumbing layer then stores its learning rates. */
const LAYER_SPECIFIC_LR = 64;
/** `LSTMRecognizer` training flag of an integer model. */
const TF_INT_MODE = 1;
/** LSTM gate matrices in order (CI, GI, GF1, GO, GFS); GFS only in a 2-D LSTM. */
const LSTM_GATES = 5;

/**
 * Walks an `lstm` component; with `toFloat` it also writes the component back with every int8 matrix as a float
 * (double) one and `TF_INT_MODE` cleared, all other bytes as they were. A float matrix stays as it is.
 * @throws LstmFormatError on a layout this reader does not know (pre-4.0 weights, a training checkpoint).
 */
export function readLstm(component: Buffer, toFloat = false): { summary: LstmSummary; output: Buffer | null } {
  let p = 0;
  const out: Buffer[] = [];
  const need = (n: number) => {
    if (p + n > component.length) throw new LstmFormatError(`the component ends at byte ${component.length}, ${n} more needed at ${p}`);
  };
  const copy = (n: number) => {
    need(n);
    out.push(component.subarray(p, p + n));
    p += n;
  };
  // Read at p without moving: `copy` (or a matrix's own step) moves past what was read.
  const peek = <T>(n: number, get: (at: number) => T): T => {
    need(n);
    return get(p);
  };
  const u8 = () => peek(1, (at) => component.readUInt8(at));
  const i32 = () => peek(4, (at) => component.readInt32LE(at));
  const u32 = () => peek(4, (at) => component.readUInt32LE(at));
  const str = () => {
    const n = u32();
    need(4 + n);
    const s = component.toString('utf8', p + 4, p + 4 + n);
    copy(4 + n);
    return s;
  };
  const summary: LstmSummary = { layers: [], matrices: 0, intMatrices: 0, weights: 0, spec: '', intMode: false };

  /** One `WeightMatrix`; returns its number of outputs. */
  const matrix = (training: boolean): number => {
    const mode = u8();
    if ((mode & DOUBLE_FLAG) === 0) throw new LstmFormatError('a weight matrix in the pre-4.0 format');
    need(9);
    const rows = component.readUInt32LE(p + 1);
    const cols = component.readUInt32LE(p + 5);
    summary.matrices++;
    summary.weights += rows * cols;
    if ((mode & INT8_FLAG) === 0) {
      if (training) throw new LstmFormatError('a training checkpoint (float weights with their updates)');
      copy(1 + 8 + 8 + rows * cols * 8); // mode, dims, the array's empty value, doubles
      return rows;
    }
    summary.intMatrices++;
    need(1 + 8 + 1 + rows * cols + 4);
    const weights = component.subarray(p + 10, p + 10 + rows * cols);
    p += 10 + rows * cols;
    const count = u32();
    need(4 + count * 8);
    // Tesseract pads the scales to its SIMD row count; the first `rows` belong to the rows.
    const scales = Array.from({ length: count }, (_, k) => component.readDoubleLE(p + 4 + k * 8));
    p += 4 + count * 8;
    if (toFloat) {
      const f = Buffer.alloc(1 + 8 + 8 + rows * cols * 8);
      f.writeUInt8((mode & ~INT8_FLAG) | DOUBLE_FLAG, 0);
      f.writeUInt32LE(rows, 1);
      f.writeUInt32LE(cols, 5);
      f.writeDoubleLE(0, 9);
      for (let i = 0; i < rows; i++)
        for (let j = 0; j < cols; j++) f.writeDoubleLE(weights.readInt8(i * cols + j) * scales[i], 17 + (i * cols + j) * 8);
      out.push(f);
    }
    return rows;
  };

  const network = (depth: number): void => {
    const first = u8();
    copy(1);
    const type = first === 0 ? str() : TYPE_NAMES[first];
    if (!(type && (SHAPED.has(type) || PLUMBING.has(type) || FULLY_CONNECTED.has(type) || LSTM_TYPES.has(type))))
      throw new LstmFormatError(`layer type ${type ?? first} is not supported`);
    const training = u8() === 1; // TS_ENABLED
    copy(2); // training state, needs_to_backprop
    const flags = i32();
    copy(4);
    const ni = i32();
    copy(4);
    const no = i32();
    copy(8); // no, num_weights
    const name = str();
    summary.layers.push(`${'  '.repeat(depth)}${type} ${name}`);
    if (type === 'Input')
      copy(20); // StaticShape: batch, height, width, depth, loss type
    else if (type === 'Convolve' || type === 'Maxpool' || type === 'Reconfig') copy(8);
    else if (PLUMBING.has(type)) {
      const n = u32();
      copy(4);
      for (let k = 0; k < n; k++) network(depth + 1);
      if (flags & LAYER_SPECIFIC_LR) copy(4 + 4 * u32());
    } else if (FULLY_CONNECTED.has(type)) matrix(training);
    else {
      const na = i32();
      copy(4);
      const nf = type === 'LSTMSoftmax' ? no : type === 'LSTMBinarySoftmax' ? Math.ceil(Math.log2(no)) : 0;
      let twoD = false;
      for (let gate = 0; gate < LSTM_GATES; gate++) {
        if (gate === LSTM_GATES - 1 && !twoD) continue;
        const outputs = matrix(training);
        if (gate === 0) twoD = na - nf === ni + 2 * outputs;
      }
      if (nf > 0) network(depth + 1);
    }
  };

  network(0);
  summary.spec = str();
  const trainingFlags = i32();
  summary.intMode = (trainingFlags & TF_INT_MODE) !== 0;
  if (toFloat) {
    const f = Buffer.alloc(4);
    f.writeInt32LE(trainingFlags & ~TF_INT_MODE);
    out.push(f);
  }
  p += 4;
  copy(component.length - p); // iterations, null char, rates, and the charsets when they are inside
  return { summary, output: toFloat ? Buffer.concat(out) : null };
}
