const BLOCK_END = /<\/(p|li|h[1-6]|ul|ol|div|blockquote|tr)>|<br\s*\/?>/gi;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/**
 * Readable text of an answer that is still being written. Tokens are the model's raw output — HTML
 * from the offline engine, often Markdown from an LLM — and are shown as text until the stored,
 * sanitised HTML arrives: tags become line breaks or bullets (a half-written tag at the end is
 * hidden) and Markdown markers are left as written.
 */
export function streamPreview(raw: string): string {
  return raw
    .replace(/<[^>]*$/, '')
    .replace(/<li[^>]*>/gi, '• ')
    .replace(BLOCK_END, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\s+/, '');
}
