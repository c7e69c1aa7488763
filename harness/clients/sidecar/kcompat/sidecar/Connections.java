package kcompat.sidecar;

import com.google.gson.JsonObject;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.AdminClient;

/** One AdminClient per bootstrap, user and password: other credentials never reuse a login. */
public final class Connections {
    private static final Map<String, AdminClient> CLIENTS = new HashMap<String, AdminClient>();

    private Connections() {
    }

    static String key(JsonObject connection) {
        String password = Json.text(connection, "password");
        return Json.text(connection, "bootstrap") + "|" + Json.text(connection, "username") + "|"
            + (password == null ? "" : Integer.toHexString(password.hashCode()));
    }

    public static AdminClient client(JsonObject connection) {
        String key = key(connection);
        AdminClient client = CLIENTS.get(key);
        if (client == null) {
            Properties props = new Properties();
            props.put("bootstrap.servers", connection.get("bootstrap").getAsString());
            props.put("client.id", "kcompat-java");
            props.put("request.timeout.ms", "30000");
            String user = Json.text(connection, "username");
            if (user != null) {
                props.put("security.protocol", "SASL_PLAINTEXT");
                props.put("sasl.mechanism", "PLAIN");
                props.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required "
                    + "username=\"" + user + "\" password=\"" + Json.text(connection, "password") + "\";");
            }
            client = AdminClient.create(props);
            CLIENTS.put(key, client);
        }
        return client;
    }

    /** Close the connection's AdminClient, if one was made. */
    public static void close(JsonObject connection) {
        AdminClient closing = CLIENTS.remove(key(connection));
        if (closing != null) {
            closing.close();
        }
    }

    public static void closeAll() {
        for (AdminClient client : CLIENTS.values()) {
            client.close();
        }
        CLIENTS.clear();
    }
}
