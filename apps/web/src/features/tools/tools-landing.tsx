import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowIcon, TextIcon, VideoIcon } from './icons';

export type ToolsBase = '/tools' | '/public';

/** The tools of product.md, Screens, shared by the landing cards and the page headings. */
export const TOOLS = {
  summarization: {
    title: 'Summarizer',
    heading: 'Summarizer',
    description: 'Get the key points of any text or web page in seconds.',
    icon: TextIcon,
    tone: 'bg-primary/10 text-primary',
  },
  youtube: {
    title: 'YouTube',
    heading: 'YouTube Summarizer',
    description: 'Turn a YouTube video into a short summary from its captions.',
    icon: VideoIcon,
    tone: 'bg-error/10 text-error',
  },
} as const;

export type ToolSlug = keyof typeof TOOLS;

/** product.md, Screens tools landing: the Summarizer and YouTube cards, linking inside `base`. */
export function ToolCards({ base }: { base: ToolsBase }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {(Object.keys(TOOLS) as ToolSlug[]).map((slug) => {
        const tool = TOOLS[slug];
        const Icon = tool.icon;
        return (
          <li key={slug}>
            <Link
              to={`${base}/${slug}`}
              className="group card h-full border border-base-300 bg-base-100 transition hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-lg focus-visible:outline-2 focus-visible:outline-primary"
            >
              <div className="card-body flex-row items-start gap-4">
                <span className={`flex h-12 w-12 shrink-0 items-center justify-center rounded-xl ${tool.tone}`}>
                  <Icon />
                </span>
                <div className="min-w-0 flex-1">
                  <h2 className="card-title text-lg">{tool.title}</h2>
                  <p className="mt-1 text-sm text-base-content/70">{tool.description}</p>
                </div>
                <ArrowIcon className="mt-1 h-5 w-5 shrink-0 text-base-content/30 transition group-hover:translate-x-0.5 group-hover:text-primary" />
              </div>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** Heading block of the tools pages. */
export function ToolsHero({ title, badge, children }: { title: string; badge?: string; children?: ReactNode }) {
  return (
    <div className="mb-8">
      <h1 className="flex flex-wrap items-center gap-3 text-3xl font-bold tracking-tight">
        {title}
        {badge && <span className="badge badge-secondary">{badge}</span>}
      </h1>
      {children && <p className="mt-2 max-w-2xl text-base-content/70">{children}</p>}
    </div>
  );
}

/** /tools (product.md, Screens): AI Tools landing, marked New, with cards to the internal summarizers. */
export function ToolsLanding() {
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6 sm:py-10">
      <ToolsHero title="AI Tools" badge="New">
        Summaries of anything you read or watch, with the same AI that summarises your meetings.
      </ToolsHero>
      <ToolCards base="/tools" />
    </div>
  );
}
