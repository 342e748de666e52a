// Entry point: mounts the app (or, for `#gallery`, the paper figures page),
// and in the production build registers the service worker that keeps it
// working offline once loaded (public/sw.js).
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { Gallery } from './gallery/Gallery';
import { galleryFromHash } from './gallery/figures';
import './styles.css';

/** The classroom app, or the gallery when the address says `#gallery`; following a link between them switches. */
function Root() {
  const [gallery, setGallery] = useState(() => galleryFromHash(window.location.hash));
  useEffect(() => {
    const onHash = () => setGallery(galleryFromHash(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return gallery ? <Gallery focus={gallery.id} claim={gallery.claim} /> : <App />;
}

createRoot(document.getElementById('root')!).render(<Root />);

if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register('./sw.js').catch(() => {
    /* offline use is a convenience; the app works without it */
  });
}
