// Entry point: mounts the start screen (for an address that names nothing),
// the app, or, for `#gallery`, the paper figures page, and in the production
// build registers the service worker that keeps it working offline once
// loaded (public/sw.js).
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { Gallery } from './gallery/Gallery';
import { galleryFromHash } from './gallery/figures';
import { StartScreen } from './start/StartScreen';
import { startScreenWanted } from './start/start';
import './styles.css';

/** Which page the address asks for. */
type Page = { kind: 'start' } | { kind: 'app' } | { kind: 'gallery'; id: string | null; claim: string | null };

function pageFor(hash: string): Page {
  const g = galleryFromHash(hash);
  if (g) return { kind: 'gallery', id: g.id, claim: g.claim };
  return startScreenWanted(hash) ? { kind: 'start' } : { kind: 'app' };
}

/**
 * The start screen, the classroom app, or the gallery, as the address
 * says; following a link between them switches. The app keeps its own
 * address up to date (replaceState, no hashchange), so it stays mounted
 * until a link leads to the start screen or the gallery.
 */
function Root() {
  const [page, setPage] = useState<Page>(() => pageFor(window.location.hash));
  useEffect(() => {
    const onHash = () => setPage(pageFor(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  if (page.kind === 'gallery') return <Gallery focus={page.id} claim={page.claim} />;
  return page.kind === 'start' ? <StartScreen /> : <App />;
}

createRoot(document.getElementById('root')!).render(<Root />);

if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register('./sw.js').catch(() => {
    /* offline use is a convenience; the app works without it */
  });
}
