import { notFound } from 'next/navigation';

// Any path no route claims: the localized not-found page (SPEC point 2, "any other path").
export default function CatchAll() {
  notFound();
}
