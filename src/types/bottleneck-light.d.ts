// bottleneck/light is Bottleneck without its Redis code and ships no declarations of its own:
// it has exactly the API of the full build, so re-use bottleneck's types.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck';
  export default Bottleneck;
}
