/**
 * The router, as the host and every remote use it: one module all apps share as a singleton, so
 * a remote's `useNavigate` reads the host's router context. It re-exports only what the apps
 * use, so the shared copy carries those parts of react-router and not the whole package (the
 * data routers and server rendering were 52 KB of brotli on every first load). Apps import the
 * router from here only (ESLint forbids `react-router-dom` elsewhere); a name missing here is
 * added here.
 */
export {
  BrowserRouter,
  Link,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  useHref,
  useLocation,
  useMatch,
  useNavigate,
  useNavigationType,
  useParams,
  useSearchParams,
} from 'react-router-dom';
export type { NavigateOptions } from 'react-router-dom';
