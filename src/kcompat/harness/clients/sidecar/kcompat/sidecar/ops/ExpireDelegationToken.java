package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Tokens;
import org.apache.kafka.clients.admin.AdminClient;

/** expireDelegationToken by HMAC ({@link Tokens#byHmac}). */
public final class ExpireDelegationToken extends AdminOperation {
    private static final int EXPIRE_DELEGATION_TOKEN = 40;

    public ExpireDelegationToken() {
        super(EXPIRE_DELEGATION_TOKEN);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Tokens.byHmac(client, args, call, "expireDelegationToken", "expiryTimePeriodMs", "expiry_period_ms");
    }
}
