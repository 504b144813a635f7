import { useEffect } from 'react';
import { useAuth } from 'react-oidc-context';
import { useNavigate } from 'react-router';
import { StatusScreen } from '../../components/status-screen.js';
import { paths } from '../../config/paths.js';
import { AUTH_MESSAGES } from './messages.js';
import { takeRedirectPath } from '../../lib/redirect-path.js';

/** The provider sends the member back here; the auth provider has already exchanged the code. */
export function CallbackPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const { isLoading, isAuthenticated, error } = auth;

  useEffect(() => {
    if (isLoading) return;
    if (error) {
      navigate(paths.home, { replace: true, state: { authFailed: error.message } });
    } else if (isAuthenticated) {
      navigate(takeRedirectPath() ?? paths.home, { replace: true });
    } else {
      navigate(paths.home, { replace: true });
    }
  }, [isLoading, isAuthenticated, error, navigate]);

  return <StatusScreen label={AUTH_MESSAGES.completingSignIn} />;
}
