/**
 * A product whose bookings get no codes to scan (it sets no QR code type): the scan box and the
 * scanner find none of its people, and without this nothing said why. Says what to change.
 */
export function NoCodesNotice({ productCode, productName }: { productCode: string; productName: string }) {
  return (
    <div className="mf-nocodes" role="note" aria-label="No ticket codes">
      <p>
        <b>No ticket codes:</b> {productName} ({productCode}) sets no QR code type, so its bookings get no codes to scan. Check people in by name here. To give new bookings codes, set the product’s <code>qrCodeType</code> to INTERNAL (or EXTERNAL with codes loaded), and <code>barcodeOutputType</code> to PARTICIPANT (one code each) or ORDER (one per booking): <code>PUT /v1/products/{productCode}</code>. Bookings already made keep none.
      </p>
    </div>
  );
}
