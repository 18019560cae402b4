import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// Offline and installable: the service worker, in production builds only (src/app/pwa/register.ts).
if (import.meta.env.PROD) void import('./app/pwa/register').then((m) => m.registerServiceWorker());
