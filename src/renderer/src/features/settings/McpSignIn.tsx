import { useTranslation } from 'react-i18next';
import type { McpServerState } from '../../../../shared/contract.js';
import { FailureText, useAction } from '../common/use-action.js';
import type { SectionProps } from './settings-types.js';

/** A remote server's OAuth sign-in: who is signed in and until when, Sign in / Sign out, the wait for the browser. */
export function McpSignIn({
  name,
  auth,
  client,
  onChanged,
}: {
  name: string;
  auth: NonNullable<McpServerState['auth']>;
  client: SectionProps['client'];
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const action = useAction();
  const busy = action.busy;
  const act = async (request: 'mcpSignIn' | 'mcpSignInCancel' | 'mcpSignOut') => {
    await action.run(() => client.call(request, { name }));
    onChanged();
  };
  const waiting = auth.signIn?.state === 'waiting';
  const label = waiting
    ? t('settings.mcp.signIn.waiting')
    : auth.signInRequired
      ? t('settings.mcp.signIn.needed')
      : auth.signedIn
        ? [
            auth.account
              ? t('settings.mcp.signIn.signedInAs', { account: auth.account })
              : t('settings.mcp.signIn.signedIn'),
            auth.expiresAt
              ? t('settings.mcp.signIn.validUntil', { time: new Date(auth.expiresAt).toLocaleString() })
              : undefined,
          ]
            .filter(Boolean)
            .join(' · ')
        : t('settings.mcp.signIn.notSignedIn');
  return (
    <div className="mcp-sign-in" data-testid="mcp-sign-in" data-signed-in={auth.signedIn} data-waiting={waiting}>
      <span className="settings-card-meta" data-testid="mcp-sign-in-state">
        {label}
      </span>
      <FailureText failure={action.failure} />
      {auth.signIn?.state === 'failed' ? (
        <p className="form-error">{t('settings.mcp.signIn.failed', { error: auth.signIn.error ?? '' })}</p>
      ) : null}
      <div className="settings-card-actions">
        {waiting ? (
          <>
            {auth.signIn?.authorizationUrl ? (
              <a href={auth.signIn.authorizationUrl} target="_blank" rel="noreferrer" className="small">
                {t('settings.mcp.signIn.openAgain')}
              </a>
            ) : null}
            <button
              type="button"
              className="small"
              disabled={busy}
              onClick={() => void act('mcpSignInCancel')}
              data-testid="mcp-sign-in-cancel"
            >
              {t('settings.mcp.signIn.cancel')}
            </button>
          </>
        ) : (
          <button
            type="button"
            className={auth.signedIn ? 'small' : 'small primary'}
            disabled={busy}
            onClick={() => void act('mcpSignIn')}
            data-testid="mcp-sign-in-button"
          >
            {t('settings.mcp.signIn.signIn')}
          </button>
        )}
        {auth.signedIn && !waiting ? (
          <button
            type="button"
            className="small"
            disabled={busy}
            onClick={() => void act('mcpSignOut')}
            data-testid="mcp-sign-out-button"
          >
            {t('settings.mcp.signIn.signOut')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
