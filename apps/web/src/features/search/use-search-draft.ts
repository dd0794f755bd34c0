import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { searchPath } from './search-link';

/**
 * A search field's text: what the reader types, else `shown` (the query of the page on display). Its
 * submit opens the search page for the words, unless there are none.
 */
export function useSearchDraft(shown: string) {
  const navigate = useNavigate();
  const [draft, setDraft] = useState<string | null>(null);
  const value = draft ?? shown;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!value.trim()) return;
    setDraft(null);
    navigate(searchPath(value));
  };
  return { value, setDraft, submit };
}
