import { useEffect, useState } from 'react';
import { apiBlobUrl, messageOf } from '../api/client';
import { useConnection } from '../store/connection';

/** A booking's QR code, fetched with the key and shown from a blob URL. */
export function QrCode({ orderNumber, code, label }: { orderNumber: string; code: string; label: string }) {
  const config = useConnection((s) => s.config)!;
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    apiBlobUrl(config, `/v1/bookings/${encodeURIComponent(orderNumber)}/qr/${encodeURIComponent(code)}.svg`)
      .then((u) => setUrl((made = u)))
      .catch((e) => setError(messageOf(e)));
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [config, orderNumber, code]);
  return (
    <figure className="qr">
      {url ? <img src={url} alt={`QR code for ${label}`} width={160} height={160} /> : <div className="qr-placeholder">{error ?? '…'}</div>}
      <figcaption>
        {label}
        <br />
        <code>{code}</code>
      </figcaption>
    </figure>
  );
}
