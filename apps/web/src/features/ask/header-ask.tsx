import { NavLink } from 'react-router';
import { AskIcon } from './ask-icon';

/** The header's way to ask all meetings: a button to /ask, labelled on wide screens, an icon on phones. */
export function HeaderAsk() {
  return (
    <NavLink
      to="/ask"
      className={({ isActive }) => `btn btn-sm gap-1 ${isActive ? 'btn-active' : 'btn-ghost'} max-md:btn-square`}
      aria-label="Ask all meetings"
      title="Ask all meetings"
    >
      <AskIcon className="size-5 md:size-4" />
      <span className="hidden md:inline">Ask</span>
    </NavLink>
  );
}
