import type { RouteObject } from 'react-router';
import { AppLayout } from '../features/layout/app-layout';
import { PublicLayout } from '../features/layout/public-layout';
import ChangelogPage from './changelog';
import DashboardPage from './dashboard';
import { LoginOnly, RequireAuth } from './guards';
import LoginPage from './login';
import MeetingsPage from './meetings';
import OnboardingPage from './onboarding';
import PaymentFailedPage from './payment-failed';
import PaymentSucceededPage from './payment-succeeded';
import PublicPage from './public';
import PublicSummarizationPage from './public-summarization';
import PublicYoutubePage from './public-youtube';
import SettingsPage from './settings';
import SubscribePage from './subscribe';
import ToolsPage from './tools';
import ToolsSummarizationPage from './tools-summarization';
import ToolsYoutubePage from './tools-youtube';
import UninstallPage from './uninstall';

/** The route table of spec §2. Named routes come before '/:id' so they never read as meeting ids. */
export const routes: RouteObject[] = [
  { element: <LoginOnly />, children: [{ path: '/login', element: <LoginPage /> }] },
  { path: '/uninstall', element: <UninstallPage /> },
  {
    path: '/public',
    element: <PublicLayout />,
    children: [
      { index: true, element: <PublicPage /> },
      { path: 'summarization', element: <PublicSummarizationPage /> },
      { path: 'youtube', element: <PublicYoutubePage /> },
    ],
  },
  {
    element: <RequireAuth />,
    children: [
      { path: '/onboarding', element: <OnboardingPage /> },
      { path: '/onboarding/:step', element: <OnboardingPage /> },
      {
        element: <AppLayout />,
        children: [
          { path: '/', element: <MeetingsPage /> },
          { path: '/dashboard', element: <DashboardPage /> },
          { path: '/settings', element: <SettingsPage /> },
          { path: '/tools', element: <ToolsPage /> },
          { path: '/tools/summarization', element: <ToolsSummarizationPage /> },
          { path: '/tools/youtube', element: <ToolsYoutubePage /> },
          { path: '/changelog', element: <ChangelogPage /> },
          { path: '/subscribe', element: <SubscribePage /> },
          { path: '/payment-succeeded', element: <PaymentSucceededPage /> },
          { path: '/payment-failed', element: <PaymentFailedPage /> },
          { path: '/:id', element: <MeetingsPage /> },
        ],
      },
    ],
  },
];
