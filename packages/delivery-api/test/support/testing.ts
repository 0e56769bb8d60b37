/**
 * Test support of the delivery API for code outside the package (benchmarks): `@app/delivery-api/testing`.
 * Kept under test/ so no production module can import it.
 */
export * from './loyalty.fixtures.js';
