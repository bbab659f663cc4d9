export default function App() {
  return <div>user</div>;
}
