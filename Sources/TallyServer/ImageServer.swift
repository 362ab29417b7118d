#if Server
import Hummingbird
import Logging
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import Prometheus
import TallyBadge
import TallyGeometry
import TallyOptions
import TallyRender

/// The routes of `tally serve`, on the renderer every other front end uses.
///
/// Every URL names its bytes (count, format and options are all in it), so every image
/// response is immutable: a strong ETag from the image's own bytes, so one tag names exactly
/// one image however it was asked for (SPEC §6, ETags), `Cache-Control: immutable` for a year,
/// and `304` for a matching `If-None-Match` once the request is checked. A bad value gets `400`
/// and the one-line message of `tally render`.
package struct ImageServer: Sendable {
    /// The server's options (limits among them).
    package let options: ServeSettings
    /// Where PNG and PDF are drawn.
    package let raster: RasterQueue
    /// The version the index page names.
    package let version: String
    /// Images already drawn, with their tags, by the request as the renderer reads it.
    package let responses: ResponseCache<ImageRequest>

    /// A server with these options; `version` is tally's own unless a test says otherwise.
    package init(options: ServeSettings, version: String = tallyVersion) {
        self.options = options
        self.version = version
        _ = ServerMetrics.registry  // before the first metric: one made earlier would stay a no-op
        responses = ResponseCache(budgetBytes: options.cacheSize << 20)
        raster = RasterQueue(threads: options.rasterThreads, queue: options.queue, timeout: .seconds(options.timeout))
    }

    /// The router: `/`, `/healthz`, `/metrics`, `/badge/{count}.{format}`, `/describe/{count}` and
    /// `/{count}.{format}`, for
    /// GET and HEAD, behind the request log and the metrics.
    package func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: RequestRecorder())
        // HEAD takes GET's route; `RequestRecorder` drops the body and keeps the headers.
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/", method: method) { _, _ in indexPage() }
            router.on("/healthz", method: method) { _, _ in
                Self.text(.ok, "ok\n", type: "text/plain; charset=utf-8", cache: "no-store")
            }
            router.on("/metrics", method: method) { _, _ in metrics() }
            router.on(Self.badgeRoute, method: method) { request, context in
                await badge(request, file: context.parameters.get("file") ?? "")
            }
            router.on("/describe/:count", method: method) { request, context in
                describe(request, count: context.parameters.get("count") ?? "")
            }
            router.on(Self.imageRoute, method: method) { request, context in
                await image(request, file: context.parameters.get("file") ?? "")
            }
        }
        return router
    }

    // MARK: - Images

    /// The route of images.
    static let imageRoute: RouterPath = "/:file"
    /// The route of badges.
    static let badgeRoute: RouterPath = "/badge/:file"

    /// `GET /{count}.{svg|png|pdf|json}?{render options}`.
    func image(_ request: Request, file: String) async -> Response {
        await answer(request, file: file, formats: OutputFormat.allCases, as: RenderQuery.self)
    }

    /// `GET /badge/{count}.{svg|png|pdf}?{label, of, theme, scale, colours, color, labelColor,
    /// style}` (SPEC §7).
    func badge(_ request: Request, file: String) async -> Response {
        await answer(request, file: file, formats: BadgeSettings.formats, as: BadgeQuery.self)
    }

    /// The steps every image route shares: `{count}.{format}` (404 for a format the route does
    /// not draw), the query's length (414), then the count and the parameters read into a query
    /// (400 with the command line's message), before the image it names is answered.
    func answer<Query: ImageQuery>(
        _ request: Request, file: String, formats: [OutputFormat], as _: Query.Type
    ) async -> Response {
        guard let dot = file.lastIndex(of: "."),
            let format = OutputFormat(rawValue: file[file.index(after: dot)...].lowercased()), formats.contains(format)
        else {
            return Self.notFound(request)
        }
        if let failure = Self.queryTooLong(request) { return failure }
        let query: Query
        do {
            query = try Query(
                count: try URLText.count(file[..<dot]), format: format,
                parameters: try URLText.parameters(request.uri.query))
        } catch {
            return Self.error(.badRequest, error.message)
        }
        return await respond(request, to: query.image, wording: query.options)
    }

    /// The one place an image is drawn and answered: from the cache, or drawn and kept, tagged
    /// by its bytes. The cache key is `image` itself, the very value the drawing reads, so no
    /// route can key an image by anything but what was drawn (SPEC §6, ETags). Validated and
    /// drawn (or found) before `If-None-Match` is read, so a request that is otherwise 400 never
    /// gets a 304, whatever its header says.
    ///
    /// - Parameter given: the options as given, for the words of a refusal; never read for the
    ///   bytes.
    func respond(_ request: Request, to image: ImageRequest, wording given: RenderOptions) async -> Response {
        let entry: ResponseCache<ImageRequest>.Entry
        if let cached = responses.entry(for: image) {
            ServerMetrics.cacheHits.increment()
            entry = cached
        } else {
            switch await draw(image, wording: given) {
            case .drawn(let bytes):
                entry = .init(body: ByteBuffer(bytes: bytes), tag: URLText.entityTag(of: bytes))
                responses.keep(entry, for: image)
            case .refused(let response): return response
            }
        }
        let headers = Self.imageHeaders(image.format, tag: entry.tag)
        let response = Response(status: .ok, headers: headers, body: .init(byteBuffer: entry.body))
        if let target = request.head.path {
            // This target, asked for again, is answered as this one was (CacheHitResponder).
            // The route as the metrics name it (`context.endpointPath`: `/{file}`).
            let route: String
            switch image {
            case .render: route = Self.imageRoute.description
            case .badge: route = Self.badgeRoute.description
            }
            responses.remember(target: target, for: image, headers: response.headers, route: route)
        }
        if URLText.ifNoneMatch(request.headers[.ifNoneMatch], matches: entry.tag) {
            return Self.notModified(headers)
        }
        return response
    }

    /// The bytes of an image, from its value alone, or the response that refuses it: 400 for
    /// settings the renderer or this server's limits refuse, 503 when the raster threads are
    /// busy. The server's own cap is checked before a pixel is allocated.
    func draw(_ image: ImageRequest, wording given: RenderOptions) async -> Drawing {
        switch image {
        case .render(let count, let format, let settings):
            // The scene and the viewport first (cheap: marks grow with the digits).
            let layout: (scene: TallyScene, viewport: Viewport, newMarks: [Bool]?)
            do {
                layout = try Renderer.layout(count, format, settings)
            } catch {
                return .refused(Self.error(.badRequest, given.failure(error).message))
            }
            if let refusal = sizeRefusal(width: layout.viewport.width, height: layout.viewport.height) {
                return .refused(refusal)
            }
            return await rendering(binary: format.isBinary, failure: given.failure) {
                try Renderer.render(layout, as: format, settings)
            }
        case .badge(let count, let settings):
            let badge: Badge
            do {
                badge = try given.badge(count, settings)
            } catch {
                return .refused(Self.error(.badRequest, error.message))
            }
            if let refusal = sizeRefusal(width: badge.width * settings.scale, height: badge.height * settings.scale) {
                return .refused(refusal)
            }
            return await rendering(binary: settings.format.isBinary, failure: given.failure) {
                try Renderer.badge(badge, settings)
            }
        }
    }

    /// 400 for an image larger than `--max-size` allows, or nil.
    func sizeRefusal(width: Double, height: Double) -> Response? {
        guard max(width, height) > Double(options.maxSize) else { return nil }
        return Self.error(
            .badRequest,
            "the image would be \(Values.pixels(width)) × \(Values.pixels(height)) px; this server draws at most \(Values.pixels(Double(options.maxSize))) px a side (tally serve --max-size)"
        )
    }

    /// Runs a render: PNG and PDF on the raster threads, text formats here; a refusal becomes its
    /// response.
    func rendering(
        binary: Bool, failure: (RenderError) -> CommandFailure, _ body: @escaping @Sendable () throws -> [UInt8]
    ) async -> Drawing {
        do {
            return .drawn(binary ? try await raster.run(body) : try body())
        } catch RasterQueue.Refusal.busy {
            return .refused(
                Self.unavailable(
                    "the server is drawing \(raster.capacity) PNG and PDF images already; retry in a second"))
        } catch RasterQueue.Refusal.timedOut {
            return .refused(
                Self.unavailable(
                    "the image waited over \(Values.number(options.timeout)) s for a thread; retry in a second"))
        } catch let error as RenderError {
            let refusal = failure(error)
            return .refused(Self.error(refusal.code == .usage ? .badRequest : .internalServerError, refusal.message))
        } catch {
            return .refused(Self.error(.serviceUnavailable, "the server is shutting down; retry in a second"))
        }
    }

    /// The headers of an image: its type, its tag, immutable caching, and for SVG a policy.
    static func imageHeaders(_ format: OutputFormat, tag: String) -> HTTPFields {
        var headers = immutableHeaders(contentType: contentType(format), tag: tag)
        if format == .svg {
            // An SVG opened on its own is a document: no scripts, no fetches, its own styles only.
            headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'"
        }
        return headers
    }

    /// `GET /describe/{count}?frame=F`: what `tally describe --json` prints.
    func describe(_ request: Request, count raw: String) -> Response {
        if let failure = Self.queryTooLong(request) { return failure }
        let query: DescribeQuery
        do {
            query = try DescribeQuery(
                count: try URLText.count(raw), parameters: try URLText.parameters(request.uri.query))
        } catch {
            return Self.error(.badRequest, error.message)
        }
        let tag = URLText.entityTag(of: Array(query.json.utf8))
        let headers = Self.immutableHeaders(contentType: "application/json", tag: tag)
        if URLText.ifNoneMatch(request.headers[.ifNoneMatch], matches: tag) { return Self.notModified(headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: query.json)))
    }

    // MARK: - Pages

    /// `GET /`: what the URLs are, with one drawn.
    func indexPage() -> Response {
        var response = Self.text(
            .ok, IndexPage.html(version: version, maxSize: options.maxSize), type: "text/html; charset=utf-8",
            cache: "no-cache")
        response.headers[.contentSecurityPolicy] = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"
        return response
    }

    /// `GET /metrics`: Prometheus' text format.
    func metrics() -> Response {
        ServerMetrics.rasterInFlight.set(Int64(raster.count))
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.xContentTypeOptions] = "nosniff"
        return Response(
            status: .ok, headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: ServerMetrics.registry.emitToBuffer())))
    }

    // MARK: - Responses

    /// What drawing a request gave: its bytes, or the response that refuses it.
    enum Drawing {
        case drawn([UInt8])
        case refused(Response)
    }

    static func contentType(_ format: OutputFormat) -> String {
        switch format {
        case .svg: "image/svg+xml"
        case .png: "image/png"
        case .pdf: "application/pdf"
        case .json: "application/json"
        }
    }

    /// A URL always gives the same bytes: cache it anywhere, for a year, without asking again.
    static func immutableHeaders(contentType: String, tag: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.eTag] = tag
        headers[.cacheControl] = "public, max-age=31536000, immutable"
        headers[.xContentTypeOptions] = "nosniff"
        return headers
    }

    /// `304`: the image's headers, no body and no Content-Length (RFC 9110 §8.6 allows only
    /// the 200's length, which is not known without drawing it).
    static func notModified(_ headers: HTTPFields) -> Response {
        var response = Response(status: .notModified, headers: headers)
        response.headers[.contentType] = nil
        response.headers[.contentLength] = nil
        return response
    }

    static func text(_ status: HTTPResponse.Status, _ text: String, type: String, cache: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = cache
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// One line, as the command line writes it on stderr: `tally: error: …`.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        text(status, CommandFailure.line(message), type: "text/plain; charset=utf-8", cache: "no-store")
    }

    /// The message of a 405: every URL here is read-only.
    static func methodNotAllowed(_ method: String) -> String {
        "method \(URLText.printable(method)) is not allowed; tally serve answers GET and HEAD"
    }

    static func unavailable(_ message: String) -> Response {
        var response = error(.serviceUnavailable, message)
        response.headers[.retryAfter] = "1"
        return response
    }

    static func notFound(_ request: Request) -> Response {
        error(
            .notFound,
            "no page at '\(URLText.printable(request.uri.path))'; images are /{count}.svg, .png, .pdf or .json, badges /badge/{count}.svg, .png or .pdf, and / lists every URL"
        )
    }

    /// `414` before a long query is parsed.
    static func queryTooLong(_ request: Request) -> Response? {
        let length = request.uri.query?.utf8.count ?? 0
        guard length > URLText.maximumQueryBytes else { return nil }
        return error(
            .uriTooLong,
            "the query is \(Words.grouped(UInt64(length))) bytes; at most \(Words.grouped(UInt64(URLText.maximumQueryBytes))) are allowed"
        )
    }
}

/// Per request, after its response: one log line (method, target, status, bytes, time) and
/// the metrics (`http_server_requests` by route, method and status, and the
/// `http_server_request_duration` histogram). It also turns what the router throws (no route:
/// 404) into tally's one-line errors, so every response, errors included, is counted and
/// looks alike.
///
/// The metrics are recorded here rather than by Hummingbird's `MetricsMiddleware`, which
/// records them in a closure run after the body is written: that closure turns the response's
/// single buffer into a streamed body, which Hummingbird writes in three writes instead of one.
/// Measured with `make bench-serve`, it cost a quarter of the server's throughput.
struct RequestRecorder<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        var response: Response
        do {
            if request.method == .get || request.method == .head {
                response = try await next(request, context)
            } else {
                // Every URL here is read-only: say so, rather than "no page".
                response = ImageServer.error(.methodNotAllowed, ImageServer.methodNotAllowed(request.method.rawValue))
                response.headers[.allow] = "GET, HEAD"
            }
        } catch let error as HTTPError where error.status == .notFound {
            response = ImageServer.notFound(request)
        } catch let error as HTTPError {
            response = ImageServer.error(error.status, error.body ?? error.status.reasonPhrase.lowercased())
        } catch {
            context.logger.error("\(URLText.printable(String(describing: error)))")
            response = ImageServer.error(.internalServerError, "the server failed; this is a bug in tally")
        }
        // HEAD gets GET's headers (Content-Length included) and no body.
        if request.method == .head { response = response.createHeadResponse() }
        // A connection the client does not keep (`HTTP1Connection` marks it) closes after this
        // response, and the response says so (RFC 9112 §9.6).
        if request.headers[.connection] == "close" { response.headers[.connection] = "close" }
        let elapsed = ContinuousClock.now - start
        ServerMetrics.requests.record(
            route: context.endpointPath ?? "unknown", method: request.method, status: response.status.code, elapsed)
        context.logger.info(
            "\(AccessLine.text(method: request.method, target: request.uri.description, status: response.status.code, length: response.headers[.contentLength], elapsed: elapsed))"
        )
        return response
    }
}

/// A request's line in the log at the default level, as nginx's access log: method, target,
/// status, bytes and milliseconds.
enum AccessLine {
    static func text(method: HTTPRequest.Method, target: String, status: Int, length: String?, elapsed: Duration)
        -> String
    {
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return
            "\(method) \(URLText.printable(target)) \(status) \(length ?? "-") B \(Values.number(milliseconds)) ms"
    }
}

/// The counter and the histogram of each (route, method, status), made once.
final class RequestMetrics: Sendable {
    private struct Key: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: Int
    }

    private let handles = NIOLockedValueBox<[Key: (counter: Metrics.Counter, timer: Metrics.Timer)]>([:])

    func record(route: String, method: HTTPRequest.Method, status: Int, _ elapsed: Duration) {
        let key = Key(route: route, method: method, status: status)
        let handle = handles.withLockedValue { handles in
            if let known = handles[key] { return known }
            let dimensions = [
                ("http.route", route), ("http.request.method", method.rawValue),
                ("http.response.status_code", String(status)),
            ]
            let made = (
                counter: Metrics.Counter(label: "http.server.requests", dimensions: dimensions),
                timer: Metrics.Timer(
                    label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds)
            )
            handles[key] = made
            return made
        }
        handle.counter.increment()
        handle.timer.recordNanoseconds(
            elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
}

/// The Prometheus registry behind swift-metrics, set up once per process.
package enum ServerMetrics {
    /// Every metric: `http_server_requests` (by route, method and status),
    /// `http_server_request_duration` (a latency histogram), and tally's gauges.
    package static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Prometheus names allow [a-zA-Z0-9_:]; Hummingbird's labels use dots.
        factory.nameAndLabelSanitizer = { name, labels in
            (sanitized(name), labels.map { (sanitized($0.0), $0.1) })
        }
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5),
            .seconds(10),
        ]
        MetricsSystem.bootstrap(factory)
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "tally", metricName: "build_info", unitName: "info",
                helpText: "The tally version serving, as a label."),
            labels: [("version", tallyVersion)]
        ).set(Int64(1))
        return registry
    }()

    /// The requests' counters and histograms.
    static let requests = RequestMetrics()

    /// Images sent from the response cache instead of drawn.
    static let cacheHits = Metrics.Counter(label: "tally_response_cache_hits")

    /// PNG and PDF requests being drawn or waiting, read when /metrics is.
    static let rasterInFlight = registry.makeGauge(
        descriptor: MetricNameDescriptor(
            namespace: "tally", metricName: "raster_in_flight", unitName: "requests",
            helpText: "PNG and PDF requests being drawn or waiting for a thread."))

    static func sanitized(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") ? $0 : "_" })
    }
}
#endif
