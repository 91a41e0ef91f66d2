/** The app: the router of shell/router.tsx, whose root is the frame (login, header, areas). */
import { RouterProvider } from '@tanstack/react-router';
import { router } from './shell/router.js';

export function App() {
  return <RouterProvider router={router} />;
}
