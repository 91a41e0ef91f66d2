/** The app: the router of shell/router.tsx, whose root is the frame (login, header, areas), in the staff's language. */
import { RouterProvider } from '@tanstack/react-router';
import { router } from './shell/router.js';
import { LanguageProvider } from './ui/i18n.js';

export function App() {
  return (
    <LanguageProvider>
      <RouterProvider router={router} />
    </LanguageProvider>
  );
}
