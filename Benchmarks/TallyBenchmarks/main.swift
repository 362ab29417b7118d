import Benchmark
import TallyEncoding
import TallyGeometry
import TallyRender

// The goals: any scene, even Int64.max's, builds in well under a millisecond, because the
// number of marks grows with the number of digits, not with the count.

let largest = TallyCount.maximum
let nines = TallyCount(exactly: 8_999_999_999_999_999_999)!
let ninetyNineNinetyNine = TallyCount(exactly: 9_999)!

benchmark("scene Int64.max (full detail)") {
    keep(Scene(count: largest))
}

benchmark("scene 8,999,999,999,999,999,999 (the most marks)") {
    keep(Scene(count: nines))
}

benchmark("scene 9,999 at 256 px") {
    keep(Scene(count: ninetyNineNinetyNine, detail: .automatic(pixelsPerUnit: 256.0 / 732)))
}

benchmark("JSON of Int64.max") {
    keep(SceneJSON.encode(Scene(count: largest)))
}

benchmark("SVG of 9,999, every mark, 512 px") {
    keep(try Renderer.render(ninetyNineNinetyNine, RenderSettings(format: .svg, side: .longer(512), detail: .full)))
}

benchmark("PNG of 9,999 at 512 px") {
    keep(try Renderer.render(ninetyNineNinetyNine, RenderSettings(format: .png, side: .longer(512))))
}

/// Keeps a result alive so the optimiser cannot drop the work that made it.
@inline(never) func keep<T>(_ value: T) { withExtendedLifetime(value) {} }

Benchmark.main()
