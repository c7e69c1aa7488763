'use strict'
/**
 * kcompat's adapter for kafkajs's admin() client, speaking the JSON-lines adapter protocol, version 3
 * (docs/ADAPTERS.md).  Run by node with NODE_PATH naming the node_modules kcompat installed kafkajs into;
 * stdout carries protocol lines only (console.log is sent to stderr), kafkajs's log goes to stderr.
 *
 * kafkajs picks every request version itself from the broker's ApiVersions: the version it sent is read from
 * its own debug log line "Request CreateTopics(key: 19, version: 3)".  A Kafka error is data: kafkajs's
 * KafkaJSProtocolError carries Kafka's code and name (`code`, `type`).  Most kafkajs calls throw the first
 * failed resource's error for the whole call, without naming the resource: with one resource asked, the error
 * is that resource's; with several, it is the call's `exception` (which resource failed is not known).
 */

const readline = require('readline')
const kafkajs = require('kafkajs')

const PROTOCOL = 3
const REQUEST_TIMEOUT_MS = 30000
const DEFAULT_DEADLINE_S = 60

/** Seconds one call (its client's connecting included) may take: kcompat's KCOMPAT_ADAPTER_DEADLINE, 60 where it
 * names none; kcompat's own wait for an answer is longer, so a call that ends at the deadline is data. */
function callDeadline (env) {
  const seconds = Number(env.KCOMPAT_ADAPTER_DEADLINE)
  return env.KCOMPAT_ADAPTER_DEADLINE && seconds > 0 ? seconds : DEFAULT_DEADLINE_S
}

const DEADLINE_S = callDeadline(process.env)

/** Kafka's ConfigEntry.ConfigSource names by wire value (kafkajs's ConfigSource says TOPIC_CONFIG for 1). */
const CONFIG_SOURCES = ['UNKNOWN', 'DYNAMIC_TOPIC_CONFIG', 'DYNAMIC_BROKER_CONFIG', 'DYNAMIC_DEFAULT_BROKER_CONFIG',
  'STATIC_BROKER_CONFIG', 'DEFAULT_CONFIG', 'DYNAMIC_BROKER_LOGGER_CONFIG', 'CLIENT_METRICS_CONFIG', 'GROUP_CONFIG']

/** Kafka's name (Errors) for the codes kafkajs names otherwise (GROUP_COORDINATOR_NOT_AVAILABLE for 15): claims
 * compare Kafka's names.  The adapter's integration test checks every code kafkajs knows against kcompat's. */
const KAFKA_NAMES = {
  6: 'NOT_LEADER_OR_FOLLOWER', 14: 'COORDINATOR_LOAD_IN_PROGRESS', 15: 'COORDINATOR_NOT_AVAILABLE', 16: 'NOT_COORDINATOR'
}

const SENT = /^Request (\w+)\(key: (\d+), version: (\d+)\)/

// -- pure helpers (exported for kcompat's unit tests) ----------------------------------------------------------

/** (code, name) of an error: Kafka's where kafkajs carries one (KafkaJSProtocolError, or the cause of its
 * KafkaJSNumberOfRetriesExceeded), else -1 and its class. */
function kafkaError (error) {
  for (let e = error; e; e = e.cause) {
    if (Number.isInteger(e.code) && typeof e.type === 'string' && e.code > 0) return [e.code, KAFKA_NAMES[e.code] || e.type]
    if (e.cause === e) break
  }
  return [-1, (error && error.name) || 'Error']
}

function entry (resource, error, fields) {
  if (!error) {
    return { resource, error_code: 0, error_name: 'NONE', error_message: null, fields: fields || {}, exception: null }
  }
  const [code, name] = kafkaError(error)
  return {
    resource, error_code: code, error_name: name, error_message: error.message == null ? null : String(error.message),
    fields: fields || {}, exception: error.name || 'Error'
  }
}

function configSource (value) {
  return Number.isInteger(value) ? (CONFIG_SOURCES[value] || `UNKNOWN_${value}`) : String(value)
}

/** A kafkajs config entry in the sidecar's shape (Json.configEntry). */
function configEntry (raw, withSynonyms) {
  const out = {
    name: raw.configName,
    value: raw.configValue === undefined ? null : raw.configValue,
    read_only: Boolean(raw.readOnly),
    source: raw.configSource === undefined ? (raw.isDefault ? 'DEFAULT_CONFIG' : 'UNKNOWN') : configSource(raw.configSource),
    is_default: raw.isDefault === undefined ? raw.configSource === 5 : Boolean(raw.isDefault),
    sensitive: Boolean(raw.isSensitive)
  }
  if (withSynonyms && Array.isArray(raw.configSynonyms)) {
    out.synonyms = raw.configSynonyms.map(s => ({ name: s.configName, value: s.configValue === undefined ? null : s.configValue, source: configSource(s.configSource) }))
  }
  return out
}

/** create_topics' args as kafkajs's ITopicConfig list: -1 asks the broker's default (KIP-464). */
function topicsSpec (topics) {
  return topics.map(t => {
    const spec = { topic: t.name, configEntries: Object.entries(t.configs || {}).map(([name, value]) => ({ name, value: String(value) })) }
    if (t.assignments != null) {
      spec.replicaAssignment = Object.entries(t.assignments).map(([p, ids]) => ({ partition: Number(p), replicas: ids }))
    } else {
      spec.numPartitions = t.partitions == null ? -1 : t.partitions
      spec.replicationFactor = t.replication_factor == null ? -1 : t.replication_factor
    }
    return spec
  })
}

function enumValue (table, name, what) {
  const value = table[String(name).toUpperCase()]
  if (value === undefined) throw new RangeError(`kafkajs has no ${what} ${name}`)
  return value
}

function nameOf (table, value) {
  return Object.keys(table).find(k => table[k] === value) || String(value)
}

function bindingLabel (acl) {
  return `${nameOf(kafkajs.AclResourceTypes, acl.resourceType).toLowerCase()}:${acl.resourceName}:${acl.principal}:` +
    `${nameOf(kafkajs.AclOperationTypes, acl.operation)}:${nameOf(kafkajs.AclPermissionTypes, acl.permissionType)}`
}

function filterLabel (spec) {
  return `${spec.resource_type}:${spec.resource_name || '*'}:${spec.principal || '*'}:${spec.operation}:${spec.permission}`
}

/** What kafkajs can't do at all (not an error it raised): named as kcompat names a missing method, so a
 * claim's "refused" sees the client lacking it. */
function lacks (message) {
  return { name: 'NotImplementedError', message }
}

/** `promise`, or the deadline's own error (`expired`) at `until` (Date.now()), whichever comes first. */
function withDeadline (promise, what, until, deadlineS) {
  let timer
  const deadline = new Promise((resolve, reject) => {
    const error = new Error(`kafkajs did not finish ${what} within its ${deadlineS}s deadline`)
    timer = setTimeout(() => reject(Object.assign(error, { name: 'TimeoutError', expired: true })),
      Math.max(0, until - Date.now()))
  })
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}

/** The deadline's seconds where the call returned only when it expired: it ended there or later, by this
 * adapter's clock (a kafkajs timeout as long as the deadline ended it there too), or the deadline's own error
 * ended it; null otherwise. */
function reached (deadlineS, tookMs, error) {
  return (error && error.expired === true) || tookMs >= deadlineS * 1000 ? deadlineS : null
}

// -- the protocol -------------------------------------------------------------------------------------------

class Call {
  constructor () {
    this.resources = []
    this.result_fields = []
    this.unsupported = []
    this.exception = null
    this.exception_message = null
    this.deadline_reached = null // the deadline's seconds where the call returned only when it expired
  }

  threw (error) {
    this.exception = (error && error.name) || 'Error'
    this.exception_message = String(error && error.message).replace(/\n/g, ' ')
  }

  /** One resource asked: kafkajs's error is that resource's; several: the call's (which one failed is unknown). */
  failed (names, error) {
    if (names.length === 1 && kafkaError(error)[0] > 0) {
      this.resources.push(entry(names[0], error))
    } else {
      this.threw(error)
    }
  }

  answer (requestVersion) {
    const answer = {
      request_version: requestVersion, resources: this.resources, result_fields: this.result_fields,
      exception: this.exception, exception_message: this.exception_message, unsupported_options: this.unsupported
    }
    if (this.deadline_reached != null) answer.deadline_reached = this.deadline_reached
    return answer
  }
}

const sent = []

function logCreator () {
  return ({ level, log }) => {
    const match = SENT.exec(log.message || '')
    if (match) {
      sent.push([Number(match[2]), Number(match[3])])
      return
    }
    if (level <= kafkajs.logLevel.INFO) { // debug lines carry request details; nothing secret is logged at INFO
      const { message, ...extra } = log
      process.stderr.write(`${log.timestamp || ''} ${message} ${JSON.stringify(extra)}\n`)
    }
  }
}

/** The last version sent since mark of any of apiKeys: the request's, the APIs its op sends. */
function versionSince (mark, apiKeys) {
  const found = sent.slice(mark).filter(([key]) => apiKeys.includes(key))
  return found.length ? found[found.length - 1][1] : null
}

const clients = new Map()

function keyOf (connection) {
  return JSON.stringify([connection.bootstrap, connection.username || null, connection.password || null])
}

async function client (connection, until) {
  const key = keyOf(connection)
  if (!clients.has(key)) {
    const config = {
      clientId: 'kcompat-kafkajs', brokers: connection.bootstrap.split(','), logLevel: kafkajs.logLevel.DEBUG,
      logCreator, requestTimeout: REQUEST_TIMEOUT_MS, connectionTimeout: 10000
    }
    if (connection.username != null) {
      config.sasl = { mechanism: 'plain', username: connection.username, password: connection.password || '' }
    }
    const admin = new kafkajs.Kafka(config).admin()
    await withDeadline(admin.connect(), 'connecting', until, DEADLINE_S)
    clients.set(key, admin)
  }
  return clients.get(key)
}

async function close (connection) {
  const keys = connection == null ? Array.from(clients.keys()) : [keyOf(connection)]
  for (const key of keys) {
    const admin = clients.get(key)
    clients.delete(key)
    if (admin) {
      try {
        await withDeadline(admin.disconnect(), 'disconnecting', Date.now() + DEADLINE_S * 1000, DEADLINE_S)
      } catch (error) {
        process.stderr.write(`kcompat adapter: closing a client: ${error.name}: ${error.message}\n`)
      }
    }
  }
}

// -- the operations (each: admin, args, call) ----------------------------------------------------------------

const OPS = {
  async create_topics (admin, args, call) {
    const names = args.topics.map(t => t.name)
    const validateOnly = Boolean(args.validate_only)
    let created
    try {
      // kafkajs waits for the new topics' leaders by default; a validated topic never gets one
      created = await admin.createTopics({ topics: topicsSpec(args.topics), validateOnly, waitForLeaders: !validateOnly, timeout: REQUEST_TIMEOUT_MS })
    } catch (error) {
      if (error.name !== 'KafkaJSAggregateError') return call.failed(names, error)
      const byTopic = new Map(error.errors.map(e => [e.topic, e]))
      for (const name of names) call.resources.push(entry(name, byTopic.get(name)))
      return
    }
    if (created !== false) {
      for (const name of names) call.resources.push(entry(name, null))
      return
    }
    // false: every topic that failed already existed, and kafkajs does not say which did
    const exists = { code: 36, type: 'TOPIC_ALREADY_EXISTS', name: 'KafkaJSCreateTopicError', message: 'createTopics returned false' }
    for (const name of names) {
      call.resources.push(names.length === 1 ? entry(name, exists)
        : entry(name, { name: 'KafkaJSCreateTopicError', message: 'createTopics returned false: every topic that failed already existed; kafkajs does not say which' }))
    }
  },

  async create_partitions (admin, args, call) {
    const names = args.partitions.map(p => p.topic)
    const topicPartitions = args.partitions.map(p => p.assignments == null ? { topic: p.topic, count: p.total_count }
      : { topic: p.topic, count: p.total_count, assignments: p.assignments })
    try {
      await admin.createPartitions({ topicPartitions, validateOnly: Boolean(args.validate_only), timeout: REQUEST_TIMEOUT_MS })
    } catch (error) {
      return call.failed(names, error)
    }
    for (const name of names) call.resources.push(entry(name, null))
  },

  async describe_configs (admin, args, call) {
    if (args.include_documentation) call.unsupported.push('include_documentation') // kafkajs has no such option
    const synonyms = Boolean(args.include_synonyms)
    const targets = args.targets.map(t => ({ label: `${t.resource_type.toLowerCase()}:${t.name}`, type: enumValue(kafkajs.ConfigResourceTypes, t.resource_type, 'config resource type'), name: t.name }))
    let described
    try {
      described = await admin.describeConfigs({ resources: targets.map(t => ({ type: t.type, name: t.name })), includeSynonyms: synonyms })
    } catch (error) {
      return call.failed(targets.map(t => t.label), error)
    }
    const seen = []
    for (const target of targets) {
      const found = described.resources.find(r => r.resourceType === target.type && r.resourceName === target.name)
      if (!found) {
        call.resources.push(entry(target.label, { name: 'KafkaJSError', message: 'no result for this resource' }))
        continue
      }
      const configs = found.configEntries.map(c => configEntry(c, synonyms))
      for (const config of configs) for (const key of Object.keys(config)) if (!seen.includes(key)) seen.push(key)
      call.resources.push(entry(target.label, null, { configs }))
    }
    call.result_fields.push(...seen.map(k => `configs.${k}`))
  },

  async list_topics (admin, args, call) {
    if (args.list_internal === false) call.unsupported.push('list_internal') // kafkajs lists every topic
    const names = await admin.listTopics()
    for (const name of [...names].sort()) call.resources.push(entry(name, null))
  },

  async create_acls (admin, args, call) {
    const acl = args.acls.map(a => ({
      resourceType: enumValue(kafkajs.AclResourceTypes, a.resource_type, 'ACL resource type'),
      resourceName: a.resource_name,
      resourcePatternType: enumValue(kafkajs.ResourcePatternTypes, a.pattern, 'resource pattern type'),
      principal: a.principal,
      host: a.host,
      operation: enumValue(kafkajs.AclOperationTypes, a.operation, 'ACL operation'),
      permissionType: enumValue(kafkajs.AclPermissionTypes, a.permission, 'ACL permission')
    }))
    const labels = args.acls.map(filterLabel)
    try {
      await admin.createAcls({ acl })
    } catch (error) {
      return call.failed(labels, error)
    }
    for (const label of labels) call.resources.push(entry(label, null))
  },

  async describe_topics (admin, args, call) {
    // kafkajs describes topics through Metadata (no DescribeTopicPartitions): request_version is null
    call.result_fields.push('partitions')
    for (const name of args.names) {
      try {
        const { topics } = await admin.fetchTopicMetadata({ topics: [name] })
        const found = topics.find(t => t.name === name)
        call.resources.push(entry(name, null, found ? { partitions: found.partitions.length } : {}))
      } catch (error) {
        call.failed([name], error)
      }
    }
  },

  async delete_topics (admin, args, call) {
    if (args.topic_ids && args.topic_ids.length) {
      call.unsupported.push('topic_ids') // kafkajs deletes topics by name only
      return call.threw(lacks('kafkajs deletes topics by name only'))
    }
    const names = args.names
    try {
      await admin.deleteTopics({ topics: names, timeout: REQUEST_TIMEOUT_MS })
    } catch (error) {
      return call.failed(names, error)
    }
    for (const name of names) call.resources.push(entry(name, null))
  },

  async describe_cluster (admin, args, call) {
    if (args.include_authorized_operations) call.unsupported.push('include_authorized_operations')
    call.result_fields.push('nodes', 'controller', 'cluster_id')
    const { brokers, controller, clusterId } = await admin.describeCluster()
    call.resources.push(entry('cluster', null, {
      nodes: brokers.map(b => b.nodeId).sort((a, b) => a - b), controller: controller == null ? null : controller, cluster_id: clusterId
    }))
  },

  async alter_configs (admin, args, call) {
    const resources = args.resources.map(r => ({
      type: enumValue(kafkajs.ConfigResourceTypes, r.target.resource_type, 'config resource type'),
      name: r.target.name,
      configEntries: Object.entries(r.configs).map(([name, value]) => ({ name, value: String(value) }))
    }))
    const labels = args.resources.map(r => `${r.target.resource_type.toLowerCase()}:${r.target.name}`)
    try {
      await admin.alterConfigs({ resources, validateOnly: Boolean(args.validate_only) })
    } catch (error) {
      return call.failed(labels, error)
    }
    for (const label of labels) call.resources.push(entry(label, null))
  },

  async describe_acls (admin, args, call) {
    const spec = args.filter
    const label = filterLabel(spec)
    let found
    try {
      found = await admin.describeAcls(aclFilter(spec))
    } catch (error) {
      return call.failed([label], error)
    }
    const bindings = []
    for (const resource of found.resources) {
      for (const acl of resource.acls) bindings.push(bindingLabel({ ...resource, ...acl }))
    }
    call.resources.push(entry(label, null, { bindings: bindings.sort() }))
  },

  async delete_acls (admin, args, call) {
    const labels = args.filters.map(filterLabel)
    let found
    try {
      found = await admin.deleteAcls({ filters: args.filters.map(aclFilter) })
    } catch (error) {
      return call.failed(labels, error)
    }
    found.filterResponses.forEach((response, i) => {
      const deleted = response.matchingAcls.filter(m => !m.errorCode).map(bindingLabel).sort()
      call.resources.push(entry(labels[i], null, { deleted }))
    })
  },

  async list_consumer_groups (admin, args, call) {
    if (args.states && args.states.length) {
      call.unsupported.push('states') // kafkajs lists every group, with no state filter
      return call.threw(lacks('kafkajs listGroups has no state filter'))
    }
    const { groups } = await admin.listGroups()
    for (const group of groups) call.resources.push(entry(group.groupId, null))
  },

  async describe_consumer_groups (admin, args, call) {
    if (args.include_authorized_operations) call.unsupported.push('include_authorized_operations')
    call.result_fields.push('state', 'members', 'partition_assignor')
    let found
    try {
      found = await admin.describeGroups(args.groups)
    } catch (error) {
      return call.failed(args.groups, error)
    }
    for (const name of args.groups) {
      const group = found.groups.find(g => g.groupId === name)
      if (!group) {
        call.resources.push(entry(name, { name: 'KafkaJSError', message: 'no description for this group' }))
        continue
      }
      call.resources.push(entry(name, group.errorCode ? { code: group.errorCode, type: 'UNKNOWN', name: 'KafkaJSProtocolError', message: `error ${group.errorCode}` } : null, {
        state: group.state,
        partition_assignor: group.protocol,
        members: group.members.map(m => ({ member_id: m.memberId, client_id: m.clientId, host: m.clientHost, group_instance_id: m.groupInstanceId == null ? null : m.groupInstanceId }))
      }))
    }
  },

  async delete_consumer_groups (admin, args, call) {
    try {
      await admin.deleteGroups(args.groups)
    } catch (error) {
      if (error.name !== 'KafkaJSDeleteGroupsError') return call.failed(args.groups, error)
      const byGroup = new Map(error.groups.map(g => [g.groupId, g.error]))
      for (const name of args.groups) call.resources.push(entry(name, byGroup.get(name)))
      return
    }
    for (const name of args.groups) call.resources.push(entry(name, null))
  },

  async list_consumer_group_offsets (admin, args, call) {
    call.result_fields.push('offset', 'metadata')
    const wanted = args.partitions == null ? null : args.partitions
    const topics = wanted == null ? undefined : [...new Set(wanted.map(([t]) => t))]
    let found
    try {
      found = await admin.fetchOffsets({ groupId: args.group, topics })
    } catch (error) {
      return call.failed([args.group], error)
    }
    for (const topic of found) {
      for (const p of topic.partitions) {
        if (wanted != null && !wanted.some(([t, n]) => t === topic.topic && n === p.partition)) continue
        const offset = Number(p.offset)
        call.resources.push(entry(`${topic.topic}:${p.partition}`, null, { offset: offset < 0 ? null : offset, metadata: p.metadata == null ? null : p.metadata }))
      }
    }
  },

  async alter_consumer_group_offsets (admin, args, call) {
    // kafkajs sets one topic's offsets per call: one call per topic, in the order asked
    const byTopic = new Map()
    for (const [topic, partition, offset] of args.offsets) {
      if (!byTopic.has(topic)) byTopic.set(topic, [])
      byTopic.get(topic).push({ partition, offset: String(offset) })
    }
    for (const [topic, partitions] of byTopic) {
      const labels = partitions.map(p => `${topic}:${p.partition}`)
      try {
        await admin.setOffsets({ groupId: args.group, topic, partitions })
        for (const label of labels) call.resources.push(entry(label, null))
      } catch (error) {
        call.failed(labels, error)
      }
    }
  },

  async delete_records (admin, args, call) {
    call.result_fields.push('low_watermark')
    const byTopic = new Map()
    for (const b of args.before) {
      if (!byTopic.has(b.topic)) byTopic.set(b.topic, [])
      byTopic.get(b.topic).push({ partition: b.partition, offset: String(b.offset) })
    }
    for (const [topic, partitions] of byTopic) {
      try {
        await admin.deleteTopicRecords({ topic, partitions })
      } catch (error) {
        if (error.name !== 'KafkaJSDeleteTopicRecordsError') {
          call.failed(partitions.map(p => `${topic}:${p.partition}`), error)
          continue
        }
        for (const p of error.partitions) call.resources.push(entry(`${topic}:${p.partition}`, p.error))
        continue
      }
      // kafkajs returns nothing: the new low watermarks are what it reads next, not the response's
      for (const p of partitions) call.resources.push(entry(`${topic}:${p.partition}`, null))
    }
  },

  async list_offsets (admin, args, call) {
    call.result_fields.push('offset')
    for (const q of args.queries) {
      const label = `${q.topic}:${q.partition}`
      if (q.spec === 'max_timestamp') {
        call.unsupported.push('max_timestamp')
        call.resources.push(entry(label, lacks('kafkajs has no max-timestamp offset spec')))
        continue
      }
      try {
        const offsets = q.spec === 'timestamp' ? await admin.fetchTopicOffsetsByTimestamp(q.topic, q.timestamp)
          : await admin.fetchTopicOffsets(q.topic)
        const found = offsets.find(o => o.partition === q.partition)
        if (!found) {
          call.resources.push(entry(label, { code: 3, type: 'UNKNOWN_TOPIC_OR_PARTITION', name: 'KafkaJSError', message: 'no such partition in the answer' }))
          continue
        }
        const value = q.spec === 'earliest' ? found.low : q.spec === 'latest' ? found.high : found.offset
        call.resources.push(entry(label, null, { offset: Number(value) }))
      } catch (error) {
        call.failed([label], error)
      }
    }
  },

  async alter_partition_reassignments (admin, args, call) {
    // kafkajs takes target replicas only: cancelling a reassignment (replicas null) is not expressible
    const topics = new Map()
    for (const r of args.reassignments) {
      if (r.replicas == null) {
        if (!call.unsupported.includes('cancel')) call.unsupported.push('cancel')
        call.resources.push(entry(`${r.partition.topic}-${r.partition.partition}`, lacks('kafkajs cannot cancel a reassignment')))
        continue
      }
      if (!topics.has(r.partition.topic)) topics.set(r.partition.topic, [])
      topics.get(r.partition.topic).push({ partition: r.partition.partition, replicas: r.replicas })
    }
    const labels = args.reassignments.filter(r => r.replicas != null).map(r => `${r.partition.topic}-${r.partition.partition}`)
    if (labels.length === 0) return
    try {
      await admin.alterPartitionReassignments({ topics: Array.from(topics, ([topic, partitionAssignment]) => ({ topic, partitionAssignment })), timeout: REQUEST_TIMEOUT_MS })
    } catch (error) {
      if (labels.length === 1 && kafkaError(error)[0] > 0) return call.resources.push(entry(labels[0], error))
      if (error.name === 'KafkaJSAggregateError') {
        for (const label of labels) {
          const failed = error.errors.find(e => `${e.topic}-${e.partition}` === label)
          call.resources.push(entry(label, failed || null))
        }
        return
      }
      return call.threw(error)
    }
    for (const label of labels) call.resources.push(entry(label, null))
  },

  async list_partition_reassignments (admin, args, call) {
    call.result_fields.push('replicas', 'adding_replicas', 'removing_replicas')
    let topics = null
    if (args.partitions != null) {
      const byTopic = new Map()
      for (const p of args.partitions) {
        if (!byTopic.has(p.topic)) byTopic.set(p.topic, [])
        byTopic.get(p.topic).push(p.partition)
      }
      topics = Array.from(byTopic, ([topic, partitions]) => ({ topic, partitions }))
    }
    let found
    try {
      found = await admin.listPartitionReassignments({ topics, timeout: REQUEST_TIMEOUT_MS })
    } catch (error) {
      return call.failed(['*'], error)
    }
    for (const topic of found.topics) {
      for (const p of topic.partitions) {
        call.resources.push(entry(`${topic.topic}-${p.partition}`, null, { replicas: p.replicas, adding_replicas: p.addingReplicas, removing_replicas: p.removingReplicas }))
      }
    }
  }
}

function aclFilter (spec) {
  const filter = {
    resourceType: enumValue(kafkajs.AclResourceTypes, spec.resource_type, 'ACL resource type'),
    resourcePatternType: enumValue(kafkajs.ResourcePatternTypes, spec.pattern, 'resource pattern type'),
    operation: enumValue(kafkajs.AclOperationTypes, spec.operation, 'ACL operation'),
    permissionType: enumValue(kafkajs.AclPermissionTypes, spec.permission, 'ACL permission')
  }
  if (spec.resource_name != null) filter.resourceName = spec.resource_name
  if (spec.principal != null) filter.principal = spec.principal
  if (spec.host != null) filter.host = spec.host
  return filter
}

function operations (admin) {
  const methods = {
    create_topics: 'createTopics', create_partitions: 'createPartitions', describe_configs: 'describeConfigs',
    list_topics: 'listTopics', create_acls: 'createAcls', describe_topics: 'fetchTopicMetadata',
    delete_topics: 'deleteTopics', describe_cluster: 'describeCluster', alter_configs: 'alterConfigs',
    describe_acls: 'describeAcls', delete_acls: 'deleteAcls', list_consumer_groups: 'listGroups',
    describe_consumer_groups: 'describeGroups', delete_consumer_groups: 'deleteGroups',
    list_consumer_group_offsets: 'fetchOffsets', alter_consumer_group_offsets: 'setOffsets',
    delete_records: 'deleteTopicRecords', list_offsets: 'fetchTopicOffsets',
    alter_partition_reassignments: 'alterPartitionReassignments',
    list_partition_reassignments: 'listPartitionReassignments'
  }
  return Object.keys(methods).filter(op => typeof admin[methods[op]] === 'function').sort()
}

async function run (declared, op, connection, args, apiKeys) {
  if (op === 'close') {
    await close(connection)
    return new Call().answer(null)
  }
  if (!declared.includes(op)) throw Object.assign(new Error(`unknown op '${op}'`), { name: 'LookupError' })
  if (connection == null) throw Object.assign(new Error('this op needs a connection'), { name: 'ValueError' })
  const call = new Call()
  const mark = sent.length
  const started = Date.now()
  let failed = null
  try {
    const admin = await client(connection, started + DEADLINE_S * 1000)
    await withDeadline(OPS[op](admin, args, call), op, started + DEADLINE_S * 1000, DEADLINE_S)
  } catch (error) {
    if (error instanceof TypeError && !String(error.stack).includes('node_modules')) throw error // a request we can't read
    call.threw(error)
    failed = error
    if (error.expired === true) clients.delete(keyOf(connection))
  }
  call.deadline_reached = reached(DEADLINE_S, Date.now() - started, failed)
  return call.answer(versionSince(mark, apiKeys))
}

async function answer (declared, line) {
  let request = null
  try {
    request = JSON.parse(line)
    return { id: request.id, result: await run(declared, request.op, request.connection || null, request.args || {}, request.api_keys || []) }
  } catch (error) {
    return { id: request && typeof request === 'object' ? request.id : null, failure: { class: error.name || 'Error', message: String(error.message).replace(/\n/g, ' ') } }
  }
}

async function main () {
  const out = process.stdout
  console.log = console.error // nothing but protocol lines on stdout
  console.info = console.error
  const version = require('kafkajs/package.json').version
  const declared = operations(new kafkajs.Kafka({ brokers: ['127.0.0.1:9'], logLevel: kafkajs.logLevel.NOTHING }).admin())
  out.write(JSON.stringify({ ready: version, protocol: PROTOCOL, operations: declared }) + '\n')
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity })
  for await (const line of lines) {
    if (line.trim()) out.write(JSON.stringify(await answer(declared, line)) + '\n')
  }
  await close(null)
  process.exit(0)
}

if (require.main === module) {
  main().catch(error => {
    process.stderr.write(`kcompat adapter: ${error.stack}\n`)
    process.exit(1)
  })
}

module.exports = { kafkaError, entry, configEntry, configSource, topicsSpec, filterLabel, answer, callDeadline, withDeadline, reached }
