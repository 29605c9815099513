/** ICU's word breaks: Chinese and Japanese are split into words, other scripts at spaces and punctuation */
const WORDS = new Intl.Segmenter('zh', { granularity: 'word' });

/** The words of a text as the knowledge index stores and searches them: lower case, one space apart. */
export function searchWords(text: string): string[] {
  const words: string[] = [];
  for (const segment of WORDS.segment(text.toLowerCase())) {
    if (segment.isWordLike) words.push(segment.segment);
  }
  return words;
}
