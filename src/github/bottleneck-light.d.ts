// The plugin-throttling build of bottleneck ships no types of its own: they are the full build's.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck'
  export default Bottleneck
}
