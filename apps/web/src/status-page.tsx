import { useEffect, useState } from 'react';

type Readiness = 'checking' | 'ready' | 'not ready';

/** Until the account app lands: what the product is and whether its API and database answer. */
export function StatusPage() {
  const [readiness, setReadiness] = useState<Readiness>('checking');
  useEffect(() => {
    let cancelled = false;
    fetch('/api/ready')
      .then((response) => !cancelled && setReadiness(response.ok ? 'ready' : 'not ready'))
      .catch(() => !cancelled && setReadiness('not ready'));
    return () => {
      cancelled = true;
    };
  }, []);
  return (
    <main
      style={{
        fontFamily: 'system-ui, sans-serif',
        maxWidth: 640,
        margin: '4rem auto',
        padding: '0 1rem',
        color: '#3b2a20',
      }}
    >
      <h1>User Management System</h1>
      <p>Member accounts and membership administration.</p>
      <p role="status">API and database: {readiness}</p>
      <p>
        <a href="/api/docs">API documentation</a>
      </p>
    </main>
  );
}
