import type { ReactNode } from 'react';

/** A plain page frame with the documented page heading. */
export function Page({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-5xl p-6">
      <h1 className="mb-6 text-3xl font-bold">{title}</h1>
      {children}
    </div>
  );
}
