import dictionary from 'dictionary-ru';
import { loadModule } from 'hunspell-asm';

/** Whether a word is a Russian word form: the Hunspell dictionary ru_RU (npm `dictionary-ru`) with its affix rules. */
export interface RussianWords {
  /** True for a known word form in any case (`Масло`, `масло`, `МАСЛО`); ё and е are both accepted. */
  has(word: string): boolean;
}

let loading: Promise<RussianWords | null> | null = null;

/**
 * The Russian word-form dictionary, loaded once per process (or worker thread) on first use: Hunspell compiled to
 * WebAssembly (`hunspell-asm`) with the ru_RU dictionary (about 150 000 stems, their inflections come from the affix
 * rules), ~3 s and ~70 MB the first time, then microseconds per word. Resolves null when the dictionary cannot be
 * loaded, so callers fall back to their rules without it rather than fail the document.
 */
export function loadRussianWords(): Promise<RussianWords | null> {
  loading ??= (async () => {
    try {
      const factory = await loadModule();
      const aff = factory.mountBuffer(dictionary.aff, 'ru_RU.aff');
      const dic = factory.mountBuffer(dictionary.dic, 'ru_RU.dic');
      const speller = factory.create(aff, dic);
      const cache = new Map<string, boolean>();
      return {
        has(word: string): boolean {
          let known = cache.get(word);
          if (known === undefined) {
            known = speller.spell(word) || speller.spell(word.toLowerCase()) || speller.spell(word.replace(/ё/g, 'е').toLowerCase());
            if (cache.size > 50_000) cache.clear();
            cache.set(word, known);
          }
          return known;
        },
      };
    } catch {
      return null;
    }
  })();
  return loading;
}
