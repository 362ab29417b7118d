#if Cairo
import CCairo
import TallyPOSIX

/// The Cairo functions tally calls, resolved from the system's libcairo the first time a PNG or
/// PDF is drawn or read, and never before.
///
/// Why not link libcairo: linking it makes the dynamic loader map Cairo and its twenty-odd
/// libraries (pixman, libpng, FreeType, fontconfig, the X libraries …) at every start, about
/// 4M instructions, twice what the rest of `tally render 1 -f svg` costs; SVG, JSON, the
/// terminal preview, `describe` and `--help` never draw with Cairo. So the `CCairo` module gives
/// only Cairo's declarations (its types and constants), links nothing, and every call goes
/// through a pointer in this table, resolved once with `dlopen` and `dlsym`. A machine without
/// libcairo still runs everything else; a PNG or PDF there is a `CairoError.libraryMissing`,
/// which the command line reports naming the package (exit 69) and the server as a 500.
struct CairoLibrary: @unchecked Sendable {
    // One pointer a function, typed as cairo.h declares it (a pointer to a Cairo object is an
    // OpaquePointer in Swift).
    let imageSurfaceCreate: @convention(c) (cairo_format_t, Int32, Int32) -> OpaquePointer?
    let imageSurfaceCreateFromPNGStream: @convention(c) (cairo_read_func_t, UnsafeMutableRawPointer?) -> OpaquePointer?
    let imageSurfaceGetData: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<UInt8>?
    let imageSurfaceGetStride: @convention(c) (OpaquePointer?) -> Int32
    let imageSurfaceGetWidth: @convention(c) (OpaquePointer?) -> Int32
    let imageSurfaceGetHeight: @convention(c) (OpaquePointer?) -> Int32
    let imageSurfaceGetFormat: @convention(c) (OpaquePointer?) -> cairo_format_t
    let pdfSurfaceCreateForStream:
        @convention(c) (cairo_write_func_t, UnsafeMutableRawPointer?, Double, Double) -> OpaquePointer?
    let pdfSurfaceSetMetadata: @convention(c) (OpaquePointer?, cairo_pdf_metadata_t, UnsafePointer<CChar>?) -> Void
    let surfaceStatus: @convention(c) (OpaquePointer?) -> cairo_status_t
    let surfaceFlush: @convention(c) (OpaquePointer?) -> Void
    let surfaceMarkDirty: @convention(c) (OpaquePointer?) -> Void
    let surfaceFinish: @convention(c) (OpaquePointer?) -> Void
    let surfaceDestroy: @convention(c) (OpaquePointer?) -> Void
    let surfaceWriteToPNGStream:
        @convention(c) (OpaquePointer?, cairo_write_func_t, UnsafeMutableRawPointer?) -> cairo_status_t
    let statusToString: @convention(c) (cairo_status_t) -> UnsafePointer<CChar>?
    let create: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let destroy: @convention(c) (OpaquePointer?) -> Void
    let status: @convention(c) (OpaquePointer?) -> cairo_status_t
    let save: @convention(c) (OpaquePointer?) -> Void
    let restore: @convention(c) (OpaquePointer?) -> Void
    let translate: @convention(c) (OpaquePointer?, Double, Double) -> Void
    let scale: @convention(c) (OpaquePointer?, Double, Double) -> Void
    let setSourceRGBA: @convention(c) (OpaquePointer?, Double, Double, Double, Double) -> Void
    let setLineCap: @convention(c) (OpaquePointer?, cairo_line_cap_t) -> Void
    let setLineJoin: @convention(c) (OpaquePointer?, cairo_line_join_t) -> Void
    let setLineWidth: @convention(c) (OpaquePointer?, Double) -> Void
    let setDash: @convention(c) (OpaquePointer?, UnsafePointer<Double>?, Int32, Double) -> Void
    let moveTo: @convention(c) (OpaquePointer?, Double, Double) -> Void
    let lineTo: @convention(c) (OpaquePointer?, Double, Double) -> Void
    let curveTo: @convention(c) (OpaquePointer?, Double, Double, Double, Double, Double, Double) -> Void
    let closePath: @convention(c) (OpaquePointer?) -> Void
    let paint: @convention(c) (OpaquePointer?) -> Void
    let fill: @convention(c) (OpaquePointer?) -> Void
    let stroke: @convention(c) (OpaquePointer?) -> Void

    /// The file names tried, in order: the versioned name the package installs (the unversioned
    /// `libcairo.so` comes only with the -dev package), then Homebrew's prefixes, which macOS's
    /// loader does not search by itself.
    #if os(macOS)
    static let fileNames = [
        "libcairo.2.dylib", "/opt/homebrew/lib/libcairo.2.dylib", "/usr/local/lib/libcairo.2.dylib",
    ]
    #else
    static let fileNames = ["libcairo.so.2"]
    #endif

    /// The package that installs the library, as an error names it.
    #if os(macOS)
    static let packageName = "cairo (brew install cairo)"
    #else
    static let packageName = "libcairo2 (apt-get install libcairo2; Fedora: cairo)"
    #endif

    /// The library, loaded on first use; every later use gets the same table (or the same error).
    static let shared: Result<CairoLibrary, CairoError> = Result { () throws(CairoError) in try load() }

    /// The table, or `CairoError.libraryMissing` naming the package to install.
    static func loaded() throws(CairoError) -> CairoLibrary { try shared.get() }

    /// Whether the loader failed for want of memory: glibc's words when `mmap` of a library it
    /// found fails ("libX11.so.6: failed to map segment from shared object", seen under
    /// `ulimit -v`), or ENOMEM's ("Cannot allocate memory"). Anything else (no such file, a
    /// wrong architecture, a missing dependency) is a library to install.
    static func isOutOfMemory(_ loaderMessage: String) -> Bool {
        ["failed to map segment", "Cannot allocate memory", "out of memory"].contains {
            loaderMessage.contains($0)
        }
    }

    private static func load() throws(CairoError) -> CairoLibrary {
        var handle: UnsafeMutableRawPointer?
        var opened = fileNames[0]
        var reasons: [String] = []
        for name in fileNames {
            opened = name
            // RTLD_LAZY: Cairo's own calls into pixman, libpng and FreeType are bound when first made, as
            // a linked library's are, not all at once. RTLD_LOCAL: its symbols stay out of the global
            // namespace; only these pointers reach them.
            handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL)
            if handle != nil { break }
            reasons.append(dlerror().map { String(cString: $0) } ?? "\(name) could not be loaded")
        }
        guard let handle else {
            // A library that is there but could not be mapped for want of memory (`ulimit -v`)
            // is no reason to install anything: say what happened, in the words a Cairo status
            // of CAIRO_STATUS_NO_MEMORY has, which the command line reports as exit 71.
            if reasons.contains(where: isOutOfMemory) {
                throw CairoError("\(opened) could not be loaded: out of memory")
            }
            throw CairoError.libraryMissing(reasons.first ?? "")
        }
        func symbol<Function>(_ name: String) throws(CairoError) -> Function {
            guard let address = dlsym(handle, name) else {
                // cairo_pdf_surface_set_metadata, the newest used, came with Cairo 1.16. The file
                // named is the one opened (on macOS, one of several tried).
                throw CairoError.libraryMissing("\(opened) has no \(name); tally needs Cairo 1.16 or later")
            }
            return unsafeBitCast(address, to: Function.self)
        }
        let library = CairoLibrary(
            imageSurfaceCreate: try symbol("cairo_image_surface_create"),
            imageSurfaceCreateFromPNGStream: try symbol("cairo_image_surface_create_from_png_stream"),
            imageSurfaceGetData: try symbol("cairo_image_surface_get_data"),
            imageSurfaceGetStride: try symbol("cairo_image_surface_get_stride"),
            imageSurfaceGetWidth: try symbol("cairo_image_surface_get_width"),
            imageSurfaceGetHeight: try symbol("cairo_image_surface_get_height"),
            imageSurfaceGetFormat: try symbol("cairo_image_surface_get_format"),
            pdfSurfaceCreateForStream: try symbol("cairo_pdf_surface_create_for_stream"),
            pdfSurfaceSetMetadata: try symbol("cairo_pdf_surface_set_metadata"),
            surfaceStatus: try symbol("cairo_surface_status"),
            surfaceFlush: try symbol("cairo_surface_flush"),
            surfaceMarkDirty: try symbol("cairo_surface_mark_dirty"),
            surfaceFinish: try symbol("cairo_surface_finish"),
            surfaceDestroy: try symbol("cairo_surface_destroy"),
            surfaceWriteToPNGStream: try symbol("cairo_surface_write_to_png_stream"),
            statusToString: try symbol("cairo_status_to_string"),
            create: try symbol("cairo_create"),
            destroy: try symbol("cairo_destroy"),
            status: try symbol("cairo_status"),
            save: try symbol("cairo_save"),
            restore: try symbol("cairo_restore"),
            translate: try symbol("cairo_translate"),
            scale: try symbol("cairo_scale"),
            setSourceRGBA: try symbol("cairo_set_source_rgba"),
            setLineCap: try symbol("cairo_set_line_cap"),
            setLineJoin: try symbol("cairo_set_line_join"),
            setLineWidth: try symbol("cairo_set_line_width"),
            setDash: try symbol("cairo_set_dash"),
            moveTo: try symbol("cairo_move_to"),
            lineTo: try symbol("cairo_line_to"),
            curveTo: try symbol("cairo_curve_to"),
            closePath: try symbol("cairo_close_path"),
            paint: try symbol("cairo_paint"),
            fill: try symbol("cairo_fill"),
            stroke: try symbol("cairo_stroke"))
        return library
    }
}
#endif
