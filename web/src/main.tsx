// Entry point: mounts the app, and in the production build registers the
// service worker that keeps it working offline once loaded (public/sw.js).
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';

createRoot(document.getElementById('root')!).render(<App />);

if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register('./sw.js').catch(() => {
    /* offline use is a convenience; the app works without it */
  });
}
