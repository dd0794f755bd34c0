/** Initials of a speaker: first and last word, e.g. 'Ana Maria Lopez' → 'AL'. */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const picked = parts.length > 1 ? [parts[0], parts.at(-1)] : parts;
  return picked.map((p) => (p ?? '').charAt(0).toUpperCase()).join('') || '?';
}

// One color per speaker, stable across renders and meetings, so a voice is recognised at a glance.
const PALETTE = [
  'bg-sky-700',
  'bg-violet-700',
  'bg-emerald-700',
  'bg-amber-700',
  'bg-rose-700',
  'bg-teal-700',
  'bg-indigo-700',
  'bg-fuchsia-700',
];

export function speakerColor(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return PALETTE[Math.abs(hash) % PALETTE.length]!;
}

export function SpeakerAvatar({ name, url, size = 'md' }: { name: string; url: string; size?: 'sm' | 'md' }) {
  const box = size === 'sm' ? 'size-6 text-[10px]' : 'size-9 text-xs';
  if (url) {
    return <img src={url} alt="" referrerPolicy="no-referrer" className={`${box} shrink-0 rounded-full object-cover`} />;
  }
  return (
    <span
      className={`${box} ${speakerColor(name)} inline-flex shrink-0 items-center justify-center rounded-full font-semibold text-white`}
      aria-hidden="true"
    >
      {initials(name)}
    </span>
  );
}
