package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicListing;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.protocol.ApiKeys;

/** ListTopics (a Metadata request), internal topics included, sorted by name. */
public final class ListTopics extends AdminOperation {
    public ListTopics() {
        super(ApiKeys.METADATA.id);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        call.resultFields.add("internal");
        boolean listInternal = !args.has("list_internal") || args.get("list_internal").getAsBoolean();
        try {
            Collection<TopicListing> listings = client.listTopics(new ListTopicsOptions().listInternal(listInternal))
                .listings().get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<TopicListing> sorted = new ArrayList<TopicListing>(listings);
            Collections.sort(sorted, new Comparator<TopicListing>() {
                @Override
                public int compare(TopicListing a, TopicListing b) {
                    return a.name().compareTo(b.name());
                }
            });
            for (TopicListing listing : sorted) {
                JsonObject entry = Json.outcome(listing.name(), KafkaFuture.completedFuture(null));
                entry.getAsJsonObject("fields").addProperty("internal", listing.isInternal());
                call.resources.add(entry);
            }
        } catch (Exception e) {
            call.threw(e); // whatever it threw (IllegalStateException included) is the observation
        }
    }
}
