// The stub model's fixed reply, shared by the stub server and the tests.
export const STUB_REPLY = 'Stub model reply: refunds are reviewed by the billing team, so I cannot promise one.';
