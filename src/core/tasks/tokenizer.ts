/**
 * One fixed character vocabulary shared by every task, so a model's embedding and output sizes
 * never depend on which task it is trained on (and a checkpoint can be probed on any task).
 *
 * Specials come first: PAD fills the unused tail of a batch row, BOS starts every prompt, and EOS
 * ends every completion (the sampler stops a row at EOS; a row that never emits it hit the cap).
 */

export const PAD_ID = 0;
export const BOS_ID = 1;
export const EOS_ID = 2;

/** Index = token id. Specials render as '_' (PAD), '^' (BOS), '$' (EOS). */
export const VOCAB: readonly string[] = Object.freeze([
  '_', '^', '$',
  '0', '1', '2', '3', '4', '5', '6', '7', '8', '9',
  '+', // operator in digitsum and addition prompts
  '=', // ends every prompt
  ',', // separates scratchpad steps
  '>', // "therefore": the answer follows the last '>'
  'R', // marks a reverse prompt
]);

export const VOCAB_SIZE = VOCAB.length;

const ID_OF: ReadonlyMap<string, number> = new Map(VOCAB.map((ch, id) => [ch, id]));

/** Token ids of `text`, one per character. Throws on a character outside VOCAB. */
export function encode(text: string): number[] {
  const ids: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const id = ID_OF.get(text[i]);
    if (id === undefined) {
      throw new Error(
        `encode: character ${JSON.stringify(text[i])} at position ${i} of ${JSON.stringify(text)} ` +
          `is not in the vocabulary (${VOCAB.join('')})`,
      );
    }
    ids.push(id);
  }
  return ids;
}

/** Characters of `ids`; PAD and BOS are dropped, EOS shows as '$'. Throws on an id outside VOCAB. */
export function decode(ids: ArrayLike<number>): string {
  let text = '';
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (id === PAD_ID || id === BOS_ID) continue;
    if (!Number.isInteger(id) || id < 0 || id >= VOCAB_SIZE) {
      throw new RangeError(`decode: token id ${id} at position ${i} is outside [0, ${VOCAB_SIZE})`);
    }
    text += VOCAB[id];
  }
  return text;
}

/** The model's input for a prompt: BOS, then the prompt's characters (in a task's own vocabulary when given). */
export function encodePrompt(prompt: string, vocab?: Vocabulary): number[] {
  return [BOS_ID, ...(vocab ? vocab.encode(prompt) : encode(prompt))];
}

/** The warm-start target for a completion: its characters, then EOS. */
export function encodeTarget(completion: string, vocab?: Vocabulary): number[] {
  return [...(vocab ? vocab.encode(completion) : encode(completion)), EOS_ID];
}

/**
 * A task's vocabulary: the shared VOCAB first (same ids, so a built-in task's tokens never move),
 * then the task's own characters in code-point order. Built-in tasks use BASE_VOCABULARY, whose
 * size is VOCAB_SIZE; a custom task's models size their embedding and output by `size`.
 */
export interface Vocabulary {
  readonly tokens: readonly string[];
  readonly size: number;
  encode(text: string): number[];
  decode(ids: ArrayLike<number>): string;
}

export function makeVocabulary(extra: Iterable<string>): Vocabulary {
  const own = [...new Set(extra)].filter((ch) => !ID_OF.has(ch)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (own.length === 0) return BASE_VOCABULARY;
  const tokens = Object.freeze([...VOCAB, ...own]);
  const ids: ReadonlyMap<string, number> = new Map(tokens.map((ch, id) => [ch, id]));
  return {
    tokens,
    size: tokens.length,
    encode(text) {
      const out: number[] = [];
      for (let i = 0; i < text.length; i++) {
        const id = ids.get(text[i]);
        if (id === undefined) throw new Error(`encode: character ${JSON.stringify(text[i])} at position ${i} is not in the task's vocabulary`);
        out.push(id);
      }
      return out;
    },
    decode(idList) {
      let out = '';
      for (let i = 0; i < idList.length; i++) {
        const id = idList[i];
        if (id === PAD_ID || id === BOS_ID) continue;
        if (!Number.isInteger(id) || id < 0 || id >= tokens.length) throw new RangeError(`decode: token id ${id} at position ${i} is outside [0, ${tokens.length})`);
        out += tokens[id];
      }
      return out;
    },
  };
}

export const BASE_VOCABULARY: Vocabulary = Object.freeze({ tokens: VOCAB, size: VOCAB_SIZE, encode, decode });
