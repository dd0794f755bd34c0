import { Link } from 'react-router';

export function Logo({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} className="flex items-center gap-2 text-xl font-bold tracking-tight" aria-label="Mbox home">
      <img src="/favicon.svg" alt="" className="h-8 w-8" />
      <span>Mbox</span>
    </Link>
  );
}
