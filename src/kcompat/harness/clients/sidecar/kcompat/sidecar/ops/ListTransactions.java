package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/** listTransactions (KIP-664, kafka-clients 2.8+), by reflection, filtered by state where asked. */
public final class ListTransactions extends AdminOperation {
    private static final int LIST_TRANSACTIONS = 66;

    public ListTransactions() {
        super(LIST_TRANSACTIONS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method list = Values.adminMethod("listTransactions", 1);
        Class<?> optionsType = list.getParameterTypes()[0];
        Object options = optionsType.getConstructor().newInstance();
        List<Object> states = new ArrayList<Object>();
        Class<?> stateType = Class.forName("org.apache.kafka.clients.admin.TransactionState");
        for (JsonElement state : args.getAsJsonArray("states")) {
            states.add(stateType.getMethod("parse", String.class).invoke(null, state.getAsString()));
        }
        if (!states.isEmpty()) {
            optionsType.getMethod("filterStates", Collection.class).invoke(options, states);
        }
        Object result = list.invoke(client, options);
        call.resultFields.add("producer_id");
        call.resultFields.add("state");
        KafkaFuture<?> all = Values.future(result, "all");
        for (Object listing : (Collection<?>) all.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            call.resources.add(Values.listed(String.valueOf(Reflect.invoke(listing, "transactionalId")),
                Values.getters(listing, "producerId", "producer_id", "state", "state")));
        }
    }
}
