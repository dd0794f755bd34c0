import type { ReactNode } from 'react';

/** A centred card with a title: the public pages a link in an e-mail opens (unsubscribe, recipient consent). */
export function NoticeCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="hero min-h-full bg-base-200">
      <div className="hero-content w-full max-w-md text-center">
        <div className="card w-full border border-base-300 bg-base-100">
          <div className="card-body items-center gap-4">
            <h1 className="text-2xl font-bold">{title}</h1>
            {children}
          </div>
        </div>
      </div>
    </div>
  );
}
