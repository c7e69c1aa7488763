package kcompat.sidecar;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicListing;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;

/**
 * The Java AdminClient, driven over JSON lines on stdin/stdout by kcompat.
 *
 * One request per line: {"id", "op", "connection": {bootstrap, username, password}, "args"}.
 * One answer per line: {"id", "result": {...}} or {"id", "failure": {"class", "message"}} when the
 * sidecar itself could not run the op.  A Kafka error or an exception from the client is data and
 * goes into "result".  Compiled against each kafka-clients release; anything that differs between
 * releases is reached by reflection, and an option this release lacks is reported in
 * "unsupported_options", never silently dropped.  The request version each call sent is read from
 * NetworkClient's DEBUG log (slf4j-jdk14 routes it to the handler below); nothing else is kept.
 */
public final class AdminSidecar {
    private static final Pattern NAMED = Pattern.compile("apiKey=([A-Z_]+), apiVersion=(\\d+)");
    private static final Pattern NUMBERED = Pattern.compile("api_key=(\\d+),\\s*api_version=(\\d+)");
    private static final Pattern OLDER = Pattern.compile("Using older server API v(\\d+) to send ([A-Z_]+)");
    // Before 2.4 the newest version went out with only a TRACE line naming the API key.
    private static final Pattern LATEST = Pattern.compile("Sending ([A-Z_]+) .* with correlation id");
    private static final List<int[]> SENT = Collections.synchronizedList(new ArrayList<int[]>());
    private static final Map<String, AdminClient> CLIENTS = new HashMap<String, AdminClient>();
    private static final long TIMEOUT_SECONDS = 60;

    private AdminSidecar() {
    }

    public static void main(String[] args) throws Exception {
        installLogCapture();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        System.setOut(System.err); // nothing but answers on the real stdout
        JsonObject ready = new JsonObject();
        ready.addProperty("ready", AppInfo.version());
        out.println(ready);
        String line;
        while ((line = in.readLine()) != null) {
            if (line.trim().isEmpty()) {
                continue;
            }
            JsonObject request = JsonParser.parseString(line).getAsJsonObject();
            JsonObject answer = new JsonObject();
            answer.add("id", request.get("id"));
            try {
                answer.add("result", dispatch(request));
            } catch (Throwable t) {
                JsonObject failure = new JsonObject();
                failure.addProperty("class", t.getClass().getName());
                failure.addProperty("message", String.valueOf(t.getMessage()).replace('\n', ' '));
                answer.add("failure", failure);
            }
            out.println(answer);
        }
        for (AdminClient client : CLIENTS.values()) {
            client.close();
        }
    }

    static final class AppInfo {
        /** AppInfoParser moved to utils.internals in 4.x. */
        static String version() {
            for (String name : new String[] {"org.apache.kafka.common.utils.AppInfoParser",
                                             "org.apache.kafka.common.utils.internals.AppInfoParser"}) {
                try {
                    return String.valueOf(Class.forName(name).getMethod("getVersion").invoke(null));
                } catch (Exception e) {
                    continue;
                }
            }
            return "unknown";
        }
    }

    private static void installLogCapture() {
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        // Warnings still reach the sidecar's log; DEBUG request lines (which carry request bodies) never do.
        java.util.logging.ConsoleHandler console = new java.util.logging.ConsoleHandler();
        console.setLevel(Level.WARNING);
        root.addHandler(console);
        Logger network = Logger.getLogger("org.apache.kafka.clients.NetworkClient");
        network.setLevel(Level.FINEST);
        network.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                String message = record.getMessage();
                if (message == null) {
                    return;
                }
                Matcher named = NAMED.matcher(message);
                Matcher numbered = NUMBERED.matcher(message);
                Matcher older = OLDER.matcher(message);
                if (named.find()) {
                    record(apiId(named.group(1)), Integer.parseInt(named.group(2)));
                } else if (numbered.find()) {
                    record(Integer.parseInt(numbered.group(1)), Integer.parseInt(numbered.group(2)));
                } else if (older.find()) {
                    record(apiId(older.group(2)), Integer.parseInt(older.group(1)));
                } else {
                    Matcher latest = LATEST.matcher(message);
                    if (latest.find()) {
                        record(apiId(latest.group(1)), latestVersion(latest.group(1)));
                    }
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
    }

    private static int latestVersion(String name) {
        try {
            Object key = ApiKeys.valueOf(name);
            return ((Number) key.getClass().getMethod("latestVersion").invoke(key)).intValue();
        } catch (Exception e) {
            return -1;
        }
    }

    private static int apiId(String name) {
        try {
            return ApiKeys.valueOf(name).id;
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }

    private static void record(int apiKey, int version) {
        SENT.add(new int[] {apiKey, version});
    }

    private static JsonElement sentVersion(int mark, int apiKey) {
        Integer found = null;
        synchronized (SENT) {
            for (int i = mark; i < SENT.size(); i++) {
                if (SENT.get(i)[0] == apiKey) {
                    found = SENT.get(i)[1];
                }
            }
        }
        return found == null ? JsonNull.INSTANCE : new Gson().toJsonTree(found);
    }

    private static String text(JsonObject object, String name) {
        return object.has(name) && !object.get(name).isJsonNull() ? object.get(name).getAsString() : null;
    }

    /** One AdminClient per bootstrap, user and password: other credentials never reuse a login. */
    private static String clientKey(JsonObject connection) {
        String password = text(connection, "password");
        return text(connection, "bootstrap") + "|" + text(connection, "username") + "|"
            + (password == null ? "" : Integer.toHexString(password.hashCode()));
    }

    private static AdminClient client(JsonObject connection) {
        String bootstrap = connection.get("bootstrap").getAsString();
        String user = text(connection, "username");
        String key = clientKey(connection);
        AdminClient client = CLIENTS.get(key);
        if (client == null) {
            Properties props = new Properties();
            props.put("bootstrap.servers", bootstrap);
            props.put("client.id", "kcompat-java");
            props.put("request.timeout.ms", "30000");
            if (user != null) {
                String password = text(connection, "password");
                props.put("security.protocol", "SASL_PLAINTEXT");
                props.put("sasl.mechanism", "PLAIN");
                props.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required "
                    + "username=\"" + user + "\" password=\"" + password + "\";");
            }
            client = AdminClient.create(props);
            CLIENTS.put(key, client);
        }
        return client;
    }

    private static JsonObject dispatch(JsonObject request) throws Exception {
        String op = request.get("op").getAsString();
        JsonObject args = request.getAsJsonObject("args");
        if ("version".equals(op)) {
            JsonObject result = new JsonObject();
            result.addProperty("version", AppInfo.version());
            return result;
        }
        if ("api_versions".equals(op)) {
            return clientApiVersions();
        }
        if ("methods".equals(op)) {
            return publicMethods(args.get("class").getAsString());
        }
        if ("close".equals(op)) {
            AdminClient closing = CLIENTS.remove(clientKey(request.getAsJsonObject("connection")));
            if (closing != null) {
                closing.close();
            }
            return new JsonObject();
        }
        Call call = new Call(op);
        int mark = SENT.size();
        try {
            AdminClient client = client(request.getAsJsonObject("connection"));
            if ("create_topics".equals(op)) {
                createTopics(client, args, call);
            } else if ("describe_configs".equals(op)) {
                describeConfigs(client, args, call);
            } else if ("create_partitions".equals(op)) {
                createPartitions(client, args, call);
            } else if ("list_topics".equals(op)) {
                listTopics(client, args, call);
            } else if ("create_acls".equals(op)) {
                createAcls(client, args, call);
            } else {
                throw new IllegalStateException("unknown op " + op);
            }
        } catch (IllegalStateException e) {
            throw e; // a request this sidecar can't parse: the harness's fault, not the client's
        } catch (Throwable t) {
            call.threw(t); // whatever the client (or this release's API) threw is the observation
        }
        call.result.add("request_version", sentVersion(mark, call.apiKey));
        return call.result;
    }

    /** The newest request version this release can send, per API (ApiKeys.latestVersion). */
    private static JsonObject clientApiVersions() {
        JsonObject versions = new JsonObject();
        for (ApiKeys key : ApiKeys.values()) {
            int latest = latestVersion(key.name());
            if (latest >= 0) {
                versions.addProperty(key.name(), latest);
            }
        }
        JsonObject result = new JsonObject();
        result.add("api_versions", versions);
        return result;
    }

    /** The public method names of a class of this release, or "missing": what its API offers, by reflection. */
    private static JsonObject publicMethods(String className) {
        JsonObject result = new JsonObject();
        java.util.TreeSet<String> names = new java.util.TreeSet<String>();
        try {
            for (Method method : Class.forName(className).getMethods()) {
                if (method.getDeclaringClass() != Object.class) {
                    names.add(method.getName());
                }
            }
            result.add("methods", new Gson().toJsonTree(names));
        } catch (ClassNotFoundException e) {
            result.add("methods", JsonNull.INSTANCE);
        }
        return result;
    }

    /** The record being built for one call. */
    static final class Call {
        final JsonObject result = new JsonObject();
        final JsonArray resources = new JsonArray();
        final JsonArray resultFields = new JsonArray();
        final JsonArray unsupported = new JsonArray();
        int apiKey;

        Call(String op) {
            result.add("resources", resources);
            result.add("result_fields", resultFields);
            result.add("unsupported_options", unsupported);
            result.add("exception", JsonNull.INSTANCE);
            result.add("exception_message", JsonNull.INSTANCE);
        }

        void threw(Throwable t) {
            Throwable cause = unwrap(t);
            result.addProperty("exception", cause.getClass().getName());
            result.addProperty("exception_message", String.valueOf(cause.getMessage()).replace('\n', ' '));
        }
    }

    static Throwable unwrap(Throwable t) {
        while ((t instanceof ExecutionException || t instanceof InvocationTargetException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** Waits for one resource's future; the outcome (error or value) goes into a resource entry. */
    static JsonObject outcome(String resource, KafkaFuture<?> future) {
        JsonObject entry = new JsonObject();
        entry.addProperty("resource", resource);
        entry.add("fields", new JsonObject());
        try {
            future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            entry.addProperty("error_code", 0);
            entry.addProperty("error_name", "NONE");
            entry.add("error_message", JsonNull.INSTANCE);
            entry.add("exception", JsonNull.INSTANCE);
        } catch (Exception e) {
            failed(entry, unwrap(e));
        }
        return entry;
    }

    static void failed(JsonObject entry, Throwable cause) {
        Errors error = Errors.forException(cause);
        entry.addProperty("error_code", error.code());
        entry.addProperty("error_name", error.name());
        entry.addProperty("error_message", String.valueOf(cause.getMessage()));
        entry.addProperty("exception", cause.getClass().getName());
    }

    static Method method(Class<?> type, String name, Class<?>... params) {
        try {
            return type.getMethod(name, params);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    // ---- CreateTopics (KIP-525 result fields where this release has them) ----
    private static void createTopics(AdminClient client, JsonObject args, Call call) throws Exception {
        call.apiKey = ApiKeys.CREATE_TOPICS.id;
        List<NewTopic> topics = new ArrayList<NewTopic>();
        for (JsonElement element : args.getAsJsonArray("topics")) {
            topics.add(newTopic(element.getAsJsonObject(), call));
        }
        CreateTopicsOptions options = new CreateTopicsOptions().validateOnly(args.get("validate_only").getAsBoolean());
        CreateTopicsResult result = client.createTopics(topics, options);
        Method config = method(CreateTopicsResult.class, "config", String.class);
        Method partitions = method(CreateTopicsResult.class, "numPartitions", String.class);
        Method replication = method(CreateTopicsResult.class, "replicationFactor", String.class);
        if (partitions != null) {
            call.resultFields.add("num_partitions");
        }
        if (replication != null) {
            call.resultFields.add("replication_factor");
        }
        if (config != null) {
            call.resultFields.add("configs");
        }
        for (Map.Entry<String, KafkaFuture<Void>> item : result.values().entrySet()) {
            JsonObject entry = outcome(item.getKey(), item.getValue());
            JsonObject fields = entry.getAsJsonObject("fields");
            resultField(fields, "num_partitions", partitions, result, item.getKey());
            resultField(fields, "replication_factor", replication, result, item.getKey());
            resultField(fields, "configs", config, result, item.getKey());
            call.resources.add(entry);
        }
    }

    private static void resultField(JsonObject fields, String name, Method getter, Object result, String topic) {
        if (getter == null) {
            return;
        }
        try {
            Object value = ((KafkaFuture<?>) getter.invoke(result, topic)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (value instanceof Config) {
                JsonArray entries = new JsonArray();
                for (ConfigEntry entry : ((Config) value).entries()) {
                    entries.add(configEntry(entry));
                }
                fields.add(name, entries);
            } else {
                fields.add(name, new Gson().toJsonTree(value));
            }
        } catch (Exception e) {
            Throwable cause = unwrap(e);
            fields.add(name, JsonNull.INSTANCE);
            fields.addProperty(name + ".exception", cause.getClass().getName());
        }
    }

    private static NewTopic newTopic(JsonObject topic, Call call) throws Exception {
        String name = topic.get("name").getAsString();
        NewTopic created;
        if (topic.has("assignments") && !topic.get("assignments").isJsonNull()) {
            Map<Integer, List<Integer>> assignments = new HashMap<Integer, List<Integer>>();
            for (Map.Entry<String, JsonElement> item : topic.getAsJsonObject("assignments").entrySet()) {
                assignments.put(Integer.valueOf(item.getKey()), ints(item.getValue().getAsJsonArray()));
            }
            created = new NewTopic(name, assignments);
        } else if (topic.get("partitions").isJsonNull() || topic.get("replication_factor").isJsonNull()) {
            // KIP-464 (2.4): NewTopic(String, Optional<Integer>, Optional<Short>) means "broker default".
            Class<?> optional = Class.forName("java.util.Optional");
            java.lang.reflect.Constructor<NewTopic> ctor;
            try {
                ctor = NewTopic.class.getConstructor(String.class, optional, optional);
            } catch (NoSuchMethodException e) {
                throw new UnsupportedOperationException("this kafka-clients has no NewTopic with broker defaults (KIP-464)");
            }
            Object partitions = topic.get("partitions").isJsonNull()
                ? java.util.Optional.empty() : java.util.Optional.of(topic.get("partitions").getAsInt());
            Object replication = topic.get("replication_factor").isJsonNull()
                ? java.util.Optional.empty() : java.util.Optional.of(topic.get("replication_factor").getAsShort());
            created = ctor.newInstance(name, partitions, replication);
        } else {
            created = new NewTopic(name, topic.get("partitions").getAsInt(), topic.get("replication_factor").getAsShort());
        }
        Map<String, String> configs = new HashMap<String, String>();
        for (Map.Entry<String, JsonElement> item : topic.getAsJsonObject("configs").entrySet()) {
            configs.put(item.getKey(), item.getValue().getAsString());
        }
        if (!configs.isEmpty()) {
            created.configs(configs);
        }
        return created;
    }

    private static List<Integer> ints(JsonArray array) {
        List<Integer> values = new ArrayList<Integer>();
        for (JsonElement element : array) {
            values.add(element.getAsInt());
        }
        return values;
    }

    // ---- DescribeConfigs (KIP-569 type/documentation where this release has them) ----
    private static void describeConfigs(AdminClient client, JsonObject args, Call call) throws Exception {
        call.apiKey = ApiKeys.DESCRIBE_CONFIGS.id;
        List<ConfigResource> resources = new ArrayList<ConfigResource>();
        for (JsonElement element : args.getAsJsonArray("resources")) {
            JsonObject resource = element.getAsJsonObject();
            ConfigResource.Type type = ConfigResource.Type.valueOf(resource.get("type").getAsString().toUpperCase());
            resources.add(new ConfigResource(type, resource.get("name").getAsString()));
        }
        DescribeConfigsOptions options = new DescribeConfigsOptions();
        option(options, "includeSynonyms", args.get("include_synonyms").getAsBoolean(), call);
        option(options, "includeDocumentation", args.get("include_documentation").getAsBoolean(), call);
        Map<ConfigResource, KafkaFuture<Config>> values = client.describeConfigs(resources, options).values();
        java.util.LinkedHashSet<String> seen = new java.util.LinkedHashSet<String>();
        for (ConfigResource resource : resources) {
            String label = resource.type().name().toLowerCase() + ":" + resource.name();
            JsonObject entry = outcome(label, values.get(resource));
            if (entry.get("error_code").getAsInt() == 0 && entry.get("exception").isJsonNull()) {
                JsonArray configs = new JsonArray();
                for (ConfigEntry config : values.get(resource).get().entries()) {
                    JsonObject converted = configEntry(config);
                    seen.addAll(converted.keySet());
                    configs.add(converted);
                }
                entry.getAsJsonObject("fields").add("configs", configs);
            }
            call.resources.add(entry);
        }
        for (String field : seen) {
            call.resultFields.add("configs." + field);
        }
    }

    private static void option(Object options, String name, boolean wanted, Call call) throws Exception {
        Method setter = method(options.getClass(), name, boolean.class);
        if (setter != null) {
            setter.invoke(options, wanted);
        } else if (wanted) {
            call.unsupported.add(name.equals("includeSynonyms") ? "include_synonyms" : "include_documentation");
        }
    }

    static JsonObject configEntry(ConfigEntry entry) {
        JsonObject out = new JsonObject();
        out.addProperty("name", entry.name());
        out.addProperty("value", entry.value());
        out.addProperty("read_only", entry.isReadOnly());
        Object source = invoke(entry, "source");
        if (source != null) {
            out.addProperty("source", source.toString());
        }
        out.addProperty("is_default", entry.isDefault());
        out.addProperty("sensitive", entry.isSensitive());
        Object synonyms = invoke(entry, "synonyms");
        if (synonyms instanceof Collection) {
            JsonArray list = new JsonArray();
            for (Object synonym : (Collection<?>) synonyms) {
                JsonObject item = new JsonObject();
                item.addProperty("name", String.valueOf(invoke(synonym, "name")));
                Object value = invoke(synonym, "value");
                item.addProperty("value", value == null ? null : value.toString());
                item.addProperty("source", String.valueOf(invoke(synonym, "source")));
                list.add(item);
            }
            out.add("synonyms", list);
        }
        if (method(entry.getClass(), "type") != null) {
            Object type = invoke(entry, "type");
            out.addProperty("type", type == null ? null : type.toString());
        }
        if (method(entry.getClass(), "documentation") != null) {
            Object doc = invoke(entry, "documentation");
            out.addProperty("documentation", doc == null ? null : doc.toString());
        }
        return out;
    }

    static Object invoke(Object target, String name) {
        Method getter = method(target.getClass(), name);
        if (getter == null) {
            return null;
        }
        try {
            return getter.invoke(target);
        } catch (Exception e) {
            return null;
        }
    }

    // ---- CreatePartitions (KIP-195, 1.0+) ----
    private static void createPartitions(AdminClient client, JsonObject args, Call call) throws Exception {
        call.apiKey = 37;
        Class<?> newPartitions;
        Class<?> optionsType;
        try {
            newPartitions = Class.forName("org.apache.kafka.clients.admin.NewPartitions");
            optionsType = Class.forName("org.apache.kafka.clients.admin.CreatePartitionsOptions");
        } catch (ClassNotFoundException e) {
            call.threw(new UnsupportedOperationException("kafka-clients " + AppInfo.version()
                + " has no createPartitions (KIP-195 arrived in 1.0)"));
            return;
        }
        Map<String, Object> request = new java.util.LinkedHashMap<String, Object>();
        for (JsonElement element : args.getAsJsonArray("partitions")) {
            JsonObject item = element.getAsJsonObject();
            int count = item.get("total_count").getAsInt();
            Object value;
            if (item.has("assignments") && !item.get("assignments").isJsonNull()) {
                List<List<Integer>> assignments = new ArrayList<List<Integer>>();
                for (JsonElement ids : item.getAsJsonArray("assignments")) {
                    assignments.add(ints(ids.getAsJsonArray()));
                }
                value = newPartitions.getMethod("increaseTo", int.class, List.class).invoke(null, count, assignments);
            } else {
                value = newPartitions.getMethod("increaseTo", int.class).invoke(null, count);
            }
            request.put(item.get("topic").getAsString(), value);
        }
        Object options = optionsType.getConstructor().newInstance();
        optionsType.getMethod("validateOnly", boolean.class).invoke(options, args.get("validate_only").getAsBoolean());
        Object result = AdminClient.class.getMethod("createPartitions", Map.class, optionsType).invoke(client, request, options);
        @SuppressWarnings("unchecked")
        Map<String, KafkaFuture<Void>> values = (Map<String, KafkaFuture<Void>>) result.getClass().getMethod("values").invoke(result);
        for (Map.Entry<String, KafkaFuture<Void>> item : values.entrySet()) {
            call.resources.add(outcome(item.getKey(), item.getValue()));
        }
    }

    // ---- ListTopics ----
    private static void listTopics(AdminClient client, JsonObject args, Call call) throws Exception {
        call.apiKey = ApiKeys.METADATA.id;
        call.resultFields.add("internal");
        boolean listInternal = !args.has("list_internal") || args.get("list_internal").getAsBoolean();
        try {
            Collection<TopicListing> listings = client.listTopics(new ListTopicsOptions().listInternal(listInternal))
                .listings().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<TopicListing> sorted = new ArrayList<TopicListing>(listings);
            Collections.sort(sorted, new java.util.Comparator<TopicListing>() {
                @Override
                public int compare(TopicListing a, TopicListing b) {
                    return a.name().compareTo(b.name());
                }
            });
            for (TopicListing listing : sorted) {
                JsonObject entry = outcome(listing.name(), KafkaFuture.completedFuture(null));
                entry.getAsJsonObject("fields").addProperty("internal", listing.isInternal());
                call.resources.add(entry);
            }
        } catch (Exception e) {
            call.threw(e);
        }
    }

    // ---- CreateAcls (ResourcePattern from 2.0, Resource before) ----
    private static void createAcls(AdminClient client, JsonObject args, Call call) throws Exception {
        call.apiKey = ApiKeys.CREATE_ACLS.id;
        List<Object> bindings = new ArrayList<Object>();
        List<String> labels = new ArrayList<String>();
        Class<?> bindingType = Class.forName("org.apache.kafka.common.acl.AclBinding");
        Class<?> entryType = Class.forName("org.apache.kafka.common.acl.AccessControlEntry");
        Class<?> operation = Class.forName("org.apache.kafka.common.acl.AclOperation");
        Class<?> permission = Class.forName("org.apache.kafka.common.acl.AclPermissionType");
        Class<?> resourceType = Class.forName("org.apache.kafka.common.resource.ResourceType");
        for (JsonElement element : args.getAsJsonArray("acls")) {
            JsonObject acl = element.getAsJsonObject();
            Object type = enumValue(resourceType, acl.get("resource_type").getAsString());
            Object resource;
            Class<?> resourceClass;
            try {
                resourceClass = Class.forName("org.apache.kafka.common.resource.ResourcePattern");
                Class<?> patternType = Class.forName("org.apache.kafka.common.resource.PatternType");
                resource = resourceClass.getConstructor(resourceType, String.class, patternType)
                    .newInstance(type, acl.get("resource_name").getAsString(), enumValue(patternType, acl.get("pattern").getAsString()));
            } catch (ClassNotFoundException e) {
                if (!"LITERAL".equals(acl.get("pattern").getAsString())) {
                    call.unsupported.add("pattern");
                }
                resourceClass = Class.forName("org.apache.kafka.common.resource.Resource");
                resource = resourceClass.getConstructor(resourceType, String.class)
                    .newInstance(type, acl.get("resource_name").getAsString());
            }
            Object entry = entryType.getConstructor(String.class, String.class, operation, permission).newInstance(
                acl.get("principal").getAsString(), acl.get("host").getAsString(),
                enumValue(operation, acl.get("operation").getAsString()),
                enumValue(permission, acl.get("permission").getAsString()));
            bindings.add(bindingType.getConstructor(resourceClass, entryType).newInstance(resource, entry));
            labels.add(acl.get("label").getAsString());
        }
        Object result = AdminClient.class.getMethod("createAcls", Collection.class).invoke(client, bindings);
        @SuppressWarnings("unchecked")
        Map<Object, KafkaFuture<Void>> values = (Map<Object, KafkaFuture<Void>>) result.getClass().getMethod("values").invoke(result);
        for (int i = 0; i < bindings.size(); i++) {
            call.resources.add(outcome(labels.get(i), values.get(bindings.get(i))));
        }
    }

    private static Object enumValue(Class<?> type, String name) throws Exception {
        return type.getMethod("fromString", String.class).invoke(null, name);
    }
}
