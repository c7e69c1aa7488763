package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Tokens;
import org.apache.kafka.clients.admin.AdminClient;

/** renewDelegationToken by HMAC ({@link Tokens#byHmac}). */
public final class RenewDelegationToken extends AdminOperation {
    private static final int RENEW_DELEGATION_TOKEN = 39;

    public RenewDelegationToken() {
        super(RENEW_DELEGATION_TOKEN);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Tokens.byHmac(client, args, call, "renewDelegationToken", "renewTimePeriodMs", "renew_period_ms");
    }
}
